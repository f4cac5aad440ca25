// The derivative rows (tensor/autograd/derivative_rows.def, Note [Derivative
// rows]): every row has a case here, generated from the rows themselves, so a
// row added without one fails. Each case runs its op on the CPU and on the
// virtual cuda:1 and checks that the op records that row (the row's struct is
// a node's backward in the graph) and that the row's derivative matches
// central finite differences, or, for the nodes PyTorch has no derivative
// for, that backward raises PyTorch's error.
#include <doctest/doctest.h>
#include <deque>
#include <map>
#include <set>
#include "gradcheck.h"
#include "tensor/kernels/dnn.h"
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/nn_conv.h"
#include "tensor/ops/random_ops.h"
#include "tensor/ops/shape_extras.h"
#include "tensor/ops/shape_ops.h"
#include "tensor/ops/sort_ops.h"
#include "tensor/runtime/registry.h"

using namespace gl;
using ut::leaf;

namespace {

using In = std::vector<Tensor>;

struct Case {
  std::function<In(Device)> inputs;
  ut::Fn f;
  const char* error = nullptr;  // backward raises this (no derivative)
  bool zero = false;            // the gradient is zero (a sampler): no finite differences
  double eps = 1e-6, tol = 1e-5;
  // The devices whose op takes this row (all when unset): a library's row
  // where that device's library has the kernel.
  std::function<bool(Device)> on = nullptr;
};

const std::vector<double> kA = {0.3, -0.7, 1.2, 0.9, -1.4, 0.55};  // 2x3, distinct
const std::vector<double> kB = {0.8, 1.1, -0.6, 0.35, 0.6, -1.3};
const std::vector<double> kP = {0.3, 0.7, 1.2, 0.9, 1.4, 0.55};  // positive
const std::vector<double> k9 = {0.9, -0.2, 0.4, 0.1, 1.3, -0.8, 0.6, 0.25, -1.1};

std::vector<double> wave(int64_t n, double phase) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = std::sin(0.61 * double(i) + phase);
  return v;
}
Tensor ints(const std::vector<double>& v, Shape s, Device d) { return ut::tens(v, s, DType::Int64, d); }
Tensor mask(Device d) { return ut::tens({1, 0, 1, 0, 0, 1}, {2, 3}, DType::Bool, d); }
Tensor f32(const std::vector<double>& v, Shape s, Device d) {
  Tensor t = ut::tens(v, s, DType::Float32, d);
  t.set_requires_grad(true);
  return t;
}
Tensor ones_of(const Tensor& t) { return ones(t.sizes(), {t.dtype(), t.device()}); }
Device other(Device d) { return d.is_cpu() ? ut::cuda(1) : ut::cpu(); }

// One input of kA's values as 2x3, and as many more as `shapes` name.
std::function<In(Device)> A() {
  return [](Device d) { return In{leaf(kA, {2, 3}, d)}; };
}
std::function<In(Device)> AB() {
  return [](Device d) { return In{leaf(kA, {2, 3}, d), leaf(kB, {2, 3}, d)}; };
}

std::map<std::string, Case> cases() {
  std::map<std::string, Case> c;
  // linear algebra
  c["MmBackward0"] = {[](Device d) {
                        return In{leaf(kA, {2, 3}, d), leaf(kB, {3, 2}, d)};
                      },
                      [](const In& v) { return mm(v[0], v[1]); }};
  c["AddmmBackward0"] = {[](Device d) {
                           return In{leaf({1, -1}, {2}, d), leaf(kA, {2, 3}, d), leaf(kB, {3, 2}, d)};
                         },
                         [](const In& v) { return addmm(v[0], v[1], v[2], 0.5, 2); }};
  c["BmmBackward0"] = {[](Device d) {
                         return In{leaf(kA, {2, 1, 3}, d), leaf(kB, {2, 3, 1}, d)};
                       },
                       [](const In& v) { return bmm(v[0], v[1]); }};
  c["DotBackward0"] = {[](Device d) {
                         return In{leaf({1, 2, -3}, {3}, d), leaf({0.5, 0.1, 2}, {3}, d)};
                       },
                       [](const In& v) { return dot(v[0], v[1]); }};
  c["MvBackward0"] = {[](Device d) {
                        return In{leaf(kA, {2, 3}, d), leaf({1, 2, -3}, {3}, d)};
                      },
                      [](const In& v) { return mv(v[0], v[1]); }};
  c["LinalgSolveExBackward0"] = {[](Device d) {
                                   return In{leaf({2, 0.5, -1, 3}, {2, 2}, d), leaf({1, -2}, {2}, d)};
                                 },
                                 [](const In& v) { return linalg_solve(v[0], v[1]); }};
  c["LinalgInvExBackward0"] = {[](Device d) {
                                 return In{leaf({2, 0.5, -1, 3}, {2, 2}, d)};
                               },
                               [](const In& v) { return linalg_inv(v[0]); }};
  c["LinalgDetBackward0"] = {[](Device d) {
                               return In{leaf(k9, {3, 3}, d)};
                             },
                             [](const In& v) { return linalg_det(v[0]); }};
  c["LogsumexpBackward0"] = {A(), [](const In& v) { return logsumexp(v[0], {1}, false); }};
  c["LinalgVectorNormBackward0"] = {A(), [](const In& v) { return vector_norm(v[0], 3.0, {1}, false); }};
  c["NormP2Backward"] = {A(), [](const In& v) { return norm(v[0], 2, {1}, false); }};
  // reductions, selections, scans
  c["MeanBackward"] = {A(), [](const In& v) { return mean(v[0], {1}, true); }};
  c["MaxMinDimBackward"] = {A(), [](const In& v) { return max_dim(v[0], 1, false).first; }};
  c["AmaxAminBackward"] = {A(), [](const In& v) { return amax_dims(v[0], {0, 1}, false); }};
  c["MedianBackward0"] = {A(), [](const In& v) { return median(v[0]); }};
  c["SelectionBackward"] = {A(), [](const In& v) { return sort(v[0], 1, false, false).first; }};
  c["CumsumBackward0"] = {A(), [](const In& v) { return cumsum(v[0], 1, std::nullopt); }};
  c["CumprodBackward0"] = {A(), [](const In& v) { return cumprod(v[0], 1, std::nullopt); }};
  c["Unique2Backward0"] = {A(), [](const In& v) { return unique(v[0], false, false).values; },
                           "the derivative for '_unique2' is not implemented."};
  c["UniqueDimBackward0"] = {A(), [](const In& v) { return unique_dim(v[0], 0, false, false).values; },
                             "the derivative for 'unique_dim' is not implemented."};
  // views, shapes, joins
  c["ViewBackward0"] = {A(), [](const In& v) { return view(v[0], {3, 2}); }};
  c["UnsafeViewBackward0"] = {A(), [](const In& v) { return reshape(t(v[0]), {6}); }};
  c["TransposeBackward0"] = {A(), [](const In& v) { return transpose(v[0], 0, 1); }};
  c["TBackward0"] = {A(), [](const In& v) { return t(v[0]); }};
  c["PermuteBackward0"] = {[](Device d) {
                             return In{leaf(kA, {1, 2, 3}, d)};
                           },
                           [](const In& v) {
                             return permute(v[0], {2, 0, 1});
                           }};
  c["UnsqueezeBackward0"] = {A(), [](const In& v) { return unsqueeze(v[0], 1); }};
  c["SqueezeBackward"] = {[](Device d) {
                            return In{leaf(kA, {2, 1, 3}, d)};
                          },
                          [](const In& v) { return squeeze(v[0], 1); }};
  c["ExpandBackward0"] = {[](Device d) {
                            return In{leaf({1, -2, 3}, {1, 3}, d)};
                          },
                          [](const In& v) {
                            return expand(v[0], {2, 3});
                          }};
  c["SliceBackward0"] = {A(), [](const In& v) { return slice(v[0], 1, 0, 3, 2); }};
  c["SelectBackward0"] = {A(), [](const In& v) { return select(v[0], 1, 1); }};
  c["SliceBackwardBackward0"] = {[](Device d) {
                                   return In{leaf(wave(6, 0.3), {2, 3}, d)};
                                 },
                                 [](const In& v) {
                                   return slice_backward(v[0], {2, 7}, {v[0].dtype(), v[0].device()}, 1, 1, 6, 2);
                                 }};
  c["SelectBackwardBackward0"] = {[](Device d) {
                                    return In{leaf(wave(6, 0.3), {2, 3}, d)};
                                  },
                                  [](const In& v) {
                                    return select_backward(v[0], {2, 4, 3}, {v[0].dtype(), v[0].device()}, 1, 2);
                                  }};
  c["DiagonalBackwardBackward0"] = {[](Device d) {
                                      return In{leaf({1.5, -2, 0.5}, {3}, d)};
                                    },
                                    [](const In& v) {
                                      return diagonal_backward(v[0], {3, 4}, 1);
                                    }};
  c["SplitPieceBackward"] = {A(), [](const In& v) { return split_sizes(v[0], {1, 2}, 1)[1]; }};
  c["CatBackward0"] = {AB(), [](const In& v) { return cat({v[0], v[1]}, 0); }};
  c["StackBackward0"] = {AB(), [](const In& v) { return stack({v[0], v[1]}, 1); }};
  c["TriangleBackward"] = {[](Device d) { return In{leaf(k9, {3, 3}, d)}; }, [](const In& v) { return tril(v[0], 0); }};
  c["DiagEmbedBackward0"] = {[](Device d) {
                               return In{leaf({1, -2, 3}, {3}, d)};
                             },
                             [](const In& v) { return diag(v[0], 1); }};
  c["DiagonalBackward0_copy"] = {[](Device d) {
                                   return In{leaf(k9, {3, 3}, d)};
                                 },
                                 [](const In& v) { return diag(v[0], -1); }};
  c["TraceBackward0"] = {[](Device d) { return In{leaf(k9, {3, 3}, d)}; }, [](const In& v) { return trace(v[0]); }};
  c["ConstantPadNdBackward0"] = {[](Device d) {
                                   return In{leaf(wave(24, 0.2), {2, 3, 4}, d)};
                                 },
                                 [](const In& v) {
                                   return constant_pad_nd(v[0], {1, -2, -1, 2}, ut::sf(0.5));
                                 }};
  // flip, roll, unfold, F.pad's index modes, embedding
  c["FlipBackward0"] = {[](Device d) {
                          return In{leaf(wave(24, 0.4), {2, 3, 4}, d)};
                        },
                        [](const In& v) {
                          return flip(v[0], {0, -1});
                        }};
  c["RollBackward0"] = {[](Device d) {
                          return In{leaf(wave(24, 0.5), {2, 3, 4}, d)};
                        },
                        [](const In& v) {
                          return roll(v[0], {1, -5}, {1, 2});
                        }};
  c["UnfoldBackward0"] = {[](Device d) {
                            return In{leaf(wave(14, 0.6), {2, 7}, d)};
                          },
                          [](const In& v) { return unfold(v[0], 1, 3, 2); }};
  c["PadIndexBackward"] = {
      [](Device d) {
        return In{leaf(wave(24, 0.7), {1, 2, 3, 4}, d)};
      },
      [](const In& v) {
        Tensor twice = pad_by_mode(pad_by_mode(v[0], {2, -1, 1, 1}, "reflect", std::nullopt), {1, 2, 0, 1}, "replicate",
                                   std::nullopt);
        return add(twice, sum(pad_by_mode(v[0], {1, 2, 1, 0}, "circular", std::nullopt), {}, false));
      }};
  c["EmbeddingBackward0"] = {[](Device d) {
                               return In{leaf(wave(8, 0.8), {4, 2}, d)};
                             },
                             [](const In& v) {
                               // (padding_idx's row gets no gradient by design, which finite
                               // differences would see: test_shape_extras.lua checks it against PyTorch)
                               return embedding(ints({3, 0, 3, 1, 0, 2}, {2, 3}, v[0].device()), v[0], std::nullopt);
                             }};
  // indexing
  c["CopySlices"] = {[](Device d) {
                       return In{leaf(kA, {2, 3}, d), leaf({5, 6, 7}, {3}, d)};
                     },
                     [](const In& v) {
                       Tensor x = clone(v[0]);
                       IndexKey key;
                       key.items.push_back(IndexItem{IndexItem::Int, 1, {}, {}, 1, {}});
                       setitem_(x, key, &v[1], std::nullopt, "");
                       return x;
                     }};
  c["IndexBackward0"] = {A(), [](const In& v) { return index(v[0], {ints({1, 0, 1}, {3}, v[0].device())}); }};
  c["IndexPutBackward0"] = {[](Device d) {
                              return In{leaf(kA, {2, 3}, d), leaf({4, 5, 6}, {1, 3}, d)};
                            },
                            [](const In& v) { return index_put(v[0], {ints({1}, {1}, v[0].device())}, v[1], false); }};
  c["GatherBackward0"] = {A(), [](const In& v) { return gather(v[0], 1, ints({0, 2, 1, 1}, {2, 2}, v[0].device())); }};
  c["ScatterBackward0"] = {[](Device d) {
                             return In{leaf(kA, {2, 3}, d), leaf({7, 8, 9, 10}, {2, 2}, d)};
                           },
                           [](const In& v) {
                             return scatter(v[0], 1, ints({0, 2, 1, 0}, {2, 2}, v[0].device()), v[1]);
                           }};
  c["ScatterBackward1"] = {
      A(), [](const In& v) {
        return scatter(v[0], 1, ints({0, 2, 1, 0}, {2, 2}, v[0].device()), Scalar::from_double(0.5));
      }};
  c["ScatterAddBackward0"] = {[](Device d) {
                                return In{leaf(kA, {2, 3}, d), leaf({7, 8, 9, 10}, {2, 2}, d)};
                              },
                              [](const In& v) {
                                return scatter_add(v[0], 1, ints({0, 2, 1, 1}, {2, 2}, v[0].device()), v[1]);
                              }};
  c["NotImplemented"] = {[](Device d) {
                           return In{leaf(kA, {2, 3}, d), leaf({7, 8, 9, 10}, {2, 2}, d)};
                         },
                         [](const In& v) {
                           return scatter(v[0], 1, ints({0, 2, 1, 0}, {2, 2}, v[0].device()), v[1], "add");
                         },
                         "derivative for aten::scatter is not implemented"};
  c["IndexAddBackward0"] = {[](Device d) {
                              return In{leaf(kA, {2, 3}, d), leaf({7, 8, 9, 10}, {2, 2}, d)};
                            },
                            [](const In& v) {
                              return index_add(v[0], 1, ints({2, 0}, {2}, v[0].device()), v[1], Scalar::from_double(2));
                            }};
  c["TakeBackward0"] = {A(), [](const In& v) { return take(v[0], ints({5, 0, 5, 2}, {2, 2}, v[0].device())); }};
  c["MaskedSelectBackward0"] = {A(), [](const In& v) { return masked_select(v[0], mask(v[0].device())); }};
  c["MaskedFillBackward"] = {[](Device d) {
                               return In{leaf(kA, {2, 3}, d), leaf({2.5}, {}, d)};
                             },
                             [](const In& v) { return masked_fill(v[0], mask(v[0].device()), Other::of(v[1])); }};
  // elementwise outside op_rows.def, copies, samplers
  c["AddAlphaBackward"] = {AB(), [](const In& v) { return add_scaled(BinaryOp::Sub, v[0], v[1], 0.5); }};
  c["WhereBackward0"] = {AB(), [](const In& v) { return where(mask(v[0].device()), v[0], v[1]); }};
  c["ClampBackward1"] = {A(), [](const In& v) { return clamp(v[0], -0.5, 1.0); }};
  c["AddcmulBackward0"] = {[](Device d) {
                             return In{leaf(kA, {2, 3}, d), leaf(kB, {2, 3}, d), leaf(kP, {2, 3}, d)};
                           },
                           [](const In& v) { return addcmul(v[0], v[1], v[2], Scalar::from_double(0.5)); }};
  c["AddcdivBackward0"] = {[](Device d) {
                             return In{leaf(kA, {2, 3}, d), leaf(kB, {2, 3}, d), leaf(kP, {2, 3}, d)};
                           },
                           [](const In& v) { return addcdiv(v[0], v[1], v[2], Scalar::from_double(0.5)); }};
  c["LerpBackward0"] = {AB(), [](const In& v) { return lerp(v[0], v[1], Scalar::from_double(0.3)); }};
  c["LerpBackward1"] = {[](Device d) {
                          return In{leaf(kA, {2, 3}, d), leaf(kB, {2, 3}, d), leaf(kP, {2, 3}, d)};
                        },
                        [](const In& v) { return lerp(v[0], v[1], v[2]); }};
  c["RoundBackward1"] = {[](Device d) {
                           return In{leaf({0.31, -0.72, 1.23, 0.94, -1.38, 0.56}, {2, 3}, d)};
                         },
                         [](const In& v) { return round(v[0], 1); }};
  c["ToCopyBackward0"] = {A(), [](const In& v) { return to(v[0], other(v[0].device()), std::nullopt); }};
  c["CloneBackward0"] = {A(), [](const In& v) { return clone(v[0]); }};
  // zero_, fill_, copy_ on a tensor in a graph: y = 2x, then overwritten
  c["ZeroBackward0"] = {A(), [](const In& v) {
                          Tensor y = mul(v[0], ones_of(v[0]));
                          zero_recorded_(y);
                          return y;
                        }};
  c["FillBackward2"] = {A(), [](const In& v) {
                          Tensor y = mul(v[0], ones_of(v[0]));
                          fill_recorded_(y, Scalar::from_double(2.5));
                          return y;
                        }};
  c["FillBackward3"] = {[](Device d) {
                          return In{leaf(kA, {2, 3}, d), leaf({2.5}, {}, ut::cpu())};  // a CPU number fills any device
                        },
                        [](const In& v) {
                          Tensor y = mul(v[0], ones_of(v[0]));
                          fill_recorded_(y, item(v[1]), &v[1]);
                          return y;
                        }};
  c["CopyBackwards"] = {
      [](Device d) {
        return In{leaf(kA, {2, 3}, d), leaf({0.8, 1.1, -0.6}, {3}, other(d))};  // broadcast, across devices
      },
      [](const In& v) {
        Tensor y = mul(v[0], ones_of(v[0]));
        copy_recorded_(y, v[1]);
        return y;
      }};
  c["PinMemoryBackward0"] = {[](Device) {
                               return In{leaf(kA, {2, 3}, ut::cpu())};
                             },
                             [](const In& v) { return pin_memory(v[0]); }};
  c["SamplerBackward"] = {[](Device d) {
                            return In{leaf(kA, {2, 3}, d), leaf(kP, {2, 3}, d)};
                          },
                          [](const In& v) { return normal(v[0], v[1], nullptr); }, nullptr, true};
  // neural-network functions
  c["SoftmaxBackward0"] = {A(), [](const In& v) { return softmax(v[0], 1); }};
  c["LogSoftmaxBackward0"] = {A(), [](const In& v) { return log_softmax(v[0], 1); }};
  c["MseLossBackward0"] = {AB(), [](const In& v) { return mse_loss(v[0], v[1], "mean"); }};
  c["CrossEntropyBackward"] = {A(), [](const In& v) {
                                 return cross_entropy(v[0], ints({2, 0}, {2}, v[0].device()), "mean");
                               }};
  c["DropoutBackward"] = {A(), [](const In& v) {
                            manual_seed_all_devices(7);  // the same mask for every evaluation
                            return dropout(v[0], 0.5, true);
                          }};
  // float32: the library's kernels (oneDNN) run float32 only
  c["BatchNormLibraryBackward"] = {
      [](Device d) {
        return In{f32(wave(24, 1), {2, 3, 2, 2}, d), f32({1.2, 0.8, -0.5}, {3}, d), f32({0.1, -0.2, 0.3}, {3}, d)};
      },
      [](const In& v) { return batch_norm(v[0], Tensor(), Tensor(), &v[1], &v[2], true, 0.1, 1e-5); }, nullptr, false,
      1e-2, 2e-2,
      // where the device's library takes it (cuDNN: when it can be loaded)
      [](Device d) {
        const DnnKernels& k = dnn_kernels_for(d);
        NormGeom g;
        g.N = 2, g.C = 3, g.S = 4, g.dim = 4;
        return k.batch_norm_fwd && k.batch_norm_takes(g, true, true, true);
      }};
  c["BatchNormBackward"] = {
      [](Device d) {
        return In{leaf(wave(24, 1), {2, 3, 2, 2}, d), leaf({1.2, 0.8, -0.5}, {3}, d), leaf({0.1, -0.2, 0.3}, {3}, d)};
      },
      [](const In& v) { return batch_norm(v[0], Tensor(), Tensor(), &v[1], &v[2], true, 0.1, 1e-5); }};
  c["NativeLayerNormBackward0"] = {
      [](Device d) {
        return In{leaf(wave(12, 2), {2, 2, 3}, d), leaf({1.2, 0.8, -0.5}, {3}, d), leaf({0.1, -0.2, 0.3}, {3}, d)};
      },
      [](const In& v) { return layer_norm(v[0], {3}, &v[1], &v[2], 1e-5); }};
  c["ConvolutionBackward0"] = {[](Device d) {
                                 return In{leaf(wave(2 * 2 * 4 * 4, 1), {2, 2, 4, 4}, d),
                                           leaf(wave(3 * 2 * 2 * 2, 2), {3, 2, 2, 2}, d),
                                           leaf({0.1, -0.2, 0.3}, {3}, d)};
                               },
                               [](const In& v) {
                                 Conv2dOptions o;
                                 o.padding = {1, 0};
                                 return conv2d(v[0], v[1], &v[2], o);
                               }};
  c["Pool2dBackward"] = {[](Device d) {
                           return In{f32(wave(2 * 16, 3), {1, 2, 4, 4}, d)};
                         },
                         [](const In& v) {
                           Pool2dOptions o;
                           o.kernel = {2, 2};
                           return max_pool2d(v[0], o);
                         },
                         nullptr,
                         false,
                         1e-3,
                         1e-2};
  c["AdaptiveAvgPool2DBackward0"] = {[](Device d) {
                                       return In{leaf(wave(20, 4), {1, 1, 4, 5}, d)};
                                     },
                                     [](const In& v) {
                                       return adaptive_avg_pool2d(v[0], {2, 3});
                                     }};
  return c;
}

// Whether some node of out's graph runs Row as its backward.
template <class Row> bool graph_has(const Tensor& out) {
  std::deque<std::shared_ptr<Node>> todo{out.grad_fn()};
  std::set<Node*> seen;
  while (!todo.empty()) {
    auto n = todo.front();
    todo.pop_front();
    if (!n || !seen.insert(n.get()).second) continue;
    if (n->backward.template target<Row>()) return true;
    for (auto& e : n->next) todo.push_back(e);
  }
  return false;
}

template <class Row>
void check_row(const char* name, const std::map<std::string, Case>& all, std::set<std::string>& done) {
  CAPTURE(std::string(name));
  auto it = all.find(name);
  REQUIRE_MESSAGE(it != all.end(), "a derivative row without a case in test_derivatives.cpp: ", name);
  done.insert(name);
  const Case& c = it->second;
  for (Device d : ut::test_devices()) {
    if (c.on && !c.on(d)) continue;
    CAPTURE(d.str());
    In inputs = c.inputs(d);
    Tensor out = c.f(inputs);
    REQUIRE(out.grad_fn() != nullptr);
    CHECK_MESSAGE(graph_has<Row>(out), name, " is not recorded by its case's op");
    if (c.error) {
      CHECK(ut::error_of([&] { run_backward(out, ones_of(out), false); }) == c.error);
    } else if (c.zero) {
      run_backward(out, ones_of(out), false);
      for (const Tensor& x : inputs) {
        REQUIRE(x.grad().defined());
        CHECK(item(sum(unary(UnaryOp::Abs, x.grad()), {}, false)).to_double() == 0);
      }
    } else {
      ut::gradcheck(name, c.f, c.inputs(d), c.eps, c.tol);
    }
  }
}

}  // namespace

TEST_CASE("derivatives: every row is recorded by its op and matches finite differences") {
  const std::map<std::string, Case> all = cases();
  std::set<std::string> done;
#define GL_NODE(Name, ...) check_row<Name>(#Name, all, done);
#include "tensor/autograd/derivative_rows.def"
  for (const auto& [name, c] : all) CHECK_MESSAGE(done.count(name), "a case for no row: ", name);
}

// Derivative-row cases (derivative_cases.h): views, shapes, joins, padding, indexing.
#include "derivative_cases.h"

namespace gl::dcases {

void shape_cases(Cases& c) {
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
}

}  // namespace gl::dcases

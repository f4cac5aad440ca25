// Derivative-row cases (derivative_cases.h): elementwise rows outside op_rows.def, copies,
// samplers, neural-network functions.
#include "derivative_cases.h"

namespace gl::dcases {

void nn_cases(Cases& c) {
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
}

}  // namespace gl::dcases

// Derivative-row cases (derivative_cases.h): linear algebra, reductions, selections, scans.
#include "derivative_cases.h"

namespace gl::dcases {

void linalg_cases(Cases& c) {
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
}

}  // namespace gl::dcases

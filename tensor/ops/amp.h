// The two steps of torch.amp.GradScaler that run on the device, so that a
// training step waits for the GPU once (at step's found_inf check), as PyTorch's.
#pragma once
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

// torch._amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale):
// each gradient multiplied in place by inv_scale (a one-element float32
// tensor); found_inf (the same) set to 1 when any value was inf or nan.
void amp_non_finite_check_and_unscale_(std::vector<Tensor>& grads, Tensor& found_inf, const Tensor& inv_scale);

// torch._amp_update_scale_(scale, growth_tracker, found_inf, growth_factor,
// backoff_factor, growth_interval): after an overflow the scale shrinks by
// backoff_factor and the count of good steps restarts; after growth_interval
// good steps in a row it grows by growth_factor (if that stays finite).
// Returns scale, updated in place with growth_tracker.
Tensor amp_update_scale_(Tensor& scale, Tensor& growth_tracker, const Tensor& found_inf, double growth_factor,
                         double backoff_factor, int64_t growth_interval);

}  // namespace gl

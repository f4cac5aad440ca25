// cuDNN, loaded at run time (dlopen) on the first convolution or pooling on a
// GPU, as cuBLAS is (cublas_loader.h): a CUDA build starts where cuDNN is
// absent, and the first GPU convolution says which library is missing. Only
// the entry points cudnn_conv.cu and cudnn_norm.cu call; their types come from the toolkit's
// header, so a changed signature fails to compile.
#pragma once
#include <cudnn.h>
#include <string>

namespace gl::cuda {

struct CudnnApi {
#define GL_CUDNN_FN(name) decltype(&::name) name = nullptr;
// clang-format off
#define GL_CUDNN_FUNCTIONS(X)                                                                                      \
  X(cudnnCreate) X(cudnnDestroy) X(cudnnSetStream) X(cudnnGetErrorString) X(cudnnGetVersion)                       \
  X(cudnnCreateTensorDescriptor) X(cudnnSetTensor4dDescriptor) X(cudnnDestroyTensorDescriptor)                     \
  X(cudnnCreateFilterDescriptor) X(cudnnSetFilter4dDescriptor) X(cudnnDestroyFilterDescriptor)                     \
  X(cudnnCreateConvolutionDescriptor) X(cudnnSetConvolution2dDescriptor) X(cudnnSetConvolutionGroupCount)          \
  X(cudnnSetConvolutionMathType) X(cudnnDestroyConvolutionDescriptor)                                              \
  X(cudnnGetConvolutionForwardAlgorithm_v7) X(cudnnGetConvolutionForwardWorkspaceSize) X(cudnnConvolutionForward)  \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7) X(cudnnGetConvolutionBackwardDataWorkspaceSize)                   \
  X(cudnnConvolutionBackwardData) X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)                                 \
  X(cudnnGetConvolutionBackwardFilterWorkspaceSize) X(cudnnConvolutionBackwardFilter)                              \
  X(cudnnConvolutionBackwardBias) X(cudnnAddTensor)                                                                \
  X(cudnnCreatePoolingDescriptor) X(cudnnSetPooling2dDescriptor) X(cudnnDestroyPoolingDescriptor)                  \
  X(cudnnPoolingForward) X(cudnnPoolingBackward)                                                                  \
  X(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize) X(cudnnGetBatchNormalizationTrainingExReserveSpaceSize) \
  X(cudnnBatchNormalizationForwardTrainingEx) X(cudnnGetBatchNormalizationBackwardExWorkspaceSize)                 \
  X(cudnnBatchNormalizationBackwardEx) X(cudnnBatchNormalizationForwardInference)
  // clang-format on
  GL_CUDNN_FUNCTIONS(GL_CUDNN_FN)
#undef GL_CUDNN_FN
};

// The soname looked for: the major version gpulab was compiled against.
const char* cudnn_soname();

// Loads cuDNN once. Throws RuntimeError naming the library and dlerror()'s
// reason when it cannot be loaded or lacks an entry point.
const CudnnApi& cudnn();

// Whether cuDNN can be loaded (loads it); its version ("9.1.0") or the error.
bool cudnn_available(std::string* version, std::string* error);

}  // namespace gl::cuda

// cuBLAS, loaded at run time (dlopen) on the first matmul on a GPU, not linked:
// a CUDA build then starts on a machine without libcublas (CPU and virtual
// devices work; the first GPU matmul says which library is missing), and a
// start-up does not pay for mapping cuBLAS and cuBLASLt (~200 MB, ~70 ms).
// Only the entry points gemm.cu calls are here; their types come from the
// toolkit's header, so a changed signature fails to compile.
#pragma once
#include <cublas_v2.h>
#include <string>

namespace gl::cuda {

struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasDgemmStridedBatched) dgemm_strided_batched = nullptr;
  // C++ also sees an inline overload taking cudaDataType; this is the exported one.
  cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                            const void*, const void*, cudaDataType, int, long long, const void*,
                                            cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                                            long long, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  // One product (batch 1): the entry PyTorch's at::cuda::blas::gemm calls.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                            const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                            cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  decltype(&cublasDgemm_v2) dgemm = nullptr;
  decltype(&cublasSetWorkspace_v2) set_workspace = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
  decltype(&cublasGetProperty) get_property = nullptr;
};

// The soname looked for: the major version gpulab was compiled against.
const char* cublas_soname();

// Loads cuBLAS once. Throws RuntimeError naming the library and dlerror()'s
// reason when it cannot be loaded or lacks an entry point.
const CublasApi& cublas();

// Whether cuBLAS can be loaded (loads it); its version ("13.1.0") or the error.
bool cublas_available(std::string* version, std::string* error);

}  // namespace gl::cuda

# torch.distributed on gloo (Debian's libgloo-dev, installed by scripts/setup.sh).
# Optional: a build without it runs, and init_process_group says what is missing.
find_package(Gloo CONFIG QUIET)
if(Gloo_FOUND AND TARGET gloo)
  target_link_libraries(gpulab_tensor PUBLIC gloo)
  target_compile_definitions(gpulab_tensor PUBLIC GPULAB_HAVE_GLOO=1)
  set(GPULAB_HAVE_GLOO ON)
else()
  set(GPULAB_HAVE_GLOO OFF)
endif()
message(STATUS "gpulab: gloo (torch.distributed) ${GPULAB_HAVE_GLOO}")

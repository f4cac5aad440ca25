# `cmake --install` and CPack's .deb (scripts/package.sh builds it).
# Layout under the prefix: bin/gpulab; share/gpulab/lessons (with exercises/),
# which interpreter/lessons.cpp finds relative to the binary; share/doc/gpulab;
# share/man/man1/gpulab.1.gz.
include(GNUInstallDirs)

# Note [One thread pool]: the OpenMP variant of OpenBLAS, which gpulab opens by
# its path (tensor/runtime/blas_loader.h); dpkg-shlibdeps cannot see a library
# opened with dlopen, so the package names it.
if(OPENBLAS_LIBRARY_DIRS MATCHES "openblas-openmp")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0-openmp")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0")
endif()
install(TARGETS gpulab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# gpulab's modules, opened on first use (Note [Libraries on first use]).
install(TARGETS gpulab_omp_policy LIBRARY DESTINATION ${GPULAB_MODULE_DIR})  # Note [Idle workers sleep]
foreach(module gpulab_kernel gpulab_plot_cairo)
  if(TARGET ${module})
    install(TARGETS ${module} LIBRARY DESTINATION ${GPULAB_MODULE_DIR})
  endif()
endforeach()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/lessons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gpulab/lessons
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
        DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                              WORLD_READ WORLD_EXECUTE)

# Debian wants the man page and changelog compressed with gzip -9n (no time stamp),
# and the licence as doc/<package>/copyright.
find_program(GPULAB_GZIP gzip)
set(GPULAB_DOC_OUT ${CMAKE_BINARY_DIR}/doc)
file(MAKE_DIRECTORY ${GPULAB_DOC_OUT})
configure_file(${CMAKE_SOURCE_DIR}/doc/gpulab.1 ${GPULAB_DOC_OUT}/gpulab.1 @ONLY)  # the version
add_custom_command(
  OUTPUT ${GPULAB_DOC_OUT}/gpulab.1.gz ${GPULAB_DOC_OUT}/changelog.gz
  COMMAND ${GPULAB_GZIP} -9n -c ${GPULAB_DOC_OUT}/gpulab.1 > ${GPULAB_DOC_OUT}/gpulab.1.gz
  COMMAND ${GPULAB_GZIP} -9n -c ${CMAKE_SOURCE_DIR}/doc/changelog > ${GPULAB_DOC_OUT}/changelog.gz
  DEPENDS ${GPULAB_DOC_OUT}/gpulab.1 ${CMAKE_SOURCE_DIR}/doc/changelog)
add_custom_target(gpulab_docs ALL DEPENDS ${GPULAB_DOC_OUT}/gpulab.1.gz ${GPULAB_DOC_OUT}/changelog.gz)
install(FILES ${GPULAB_DOC_OUT}/gpulab.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/LICENSE ${GPULAB_DOC_OUT}/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gpulab)
install(FILES ${CMAKE_SOURCE_DIR}/doc/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gpulab)

# ---- CPack: a .deb whose Depends are Debian package names (dpkg-shlibdeps) ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpulab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "gpulab maintainers <gpulab@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Lua with PyTorch-style tensors and CUDA devices, for teaching")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "gpulab embeds Lua 5.4 and gives it a tensor library shaped like PyTorch's,\n\
printing exactly what PyTorch prints, with a REPL, lessons and exercises.\n\
On a machine with an NVIDIA GPU its CUDA devices are real GPUs (cuBLAS is\n\
loaded at run time); elsewhere virtual devices are emulated in host memory.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# cuBLAS and the NVIDIA driver are optional at run time (`gpulab doctor` says
# which were found), so they are suggestions, not dependencies: Debian's
# driver, or NVIDIA's repository (cuda-drivers, libcublas-MAJOR-MINOR).
if(GPULAB_HAVE_CUDA)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS
      "nvidia-driver | cuda-drivers, libcublas-${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
endif()
# The d2l lessons read Fashion-MNIST from Debian's package (torchvision.datasets.FashionMNIST).
# Plots: libcairo2 comes into Depends through dpkg-shlibdeps, as libdnnl and
# zlib do; their text is set in DejaVu Sans (plot/draw_image.cpp).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist, fonts-dejavu-core")
set(CPACK_STRIP_FILES ON)
include(CPack)

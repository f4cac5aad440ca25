#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include "tensor/runtime/registry.h"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  gl::release_devices();  // Note [Teardown]: a leak checker sees a clean exit
  return status;
}

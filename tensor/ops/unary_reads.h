// What each unary row's derivative reads (its text names `a`, `out` or
// both): a row that reads only `out` saves no input, as PyTorch's (Note
// [Version counter]). Read from the rows themselves, at compile time.
#pragma once
#include <cstddef>
#include "tensor/kernels/spec.h"

namespace gl {

// Whether a derivative's text names `word` as a whole identifier.
constexpr bool derivative_mentions(const char* s, const char* word) {
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t i = 0; s[i]; ++i) {
    size_t n = 0;
    while (word[n] && s[i + n] == word[n]) ++n;
    if (!word[n] && (i == 0 || !ident(s[i - 1])) && !ident(s[i + n])) return true;
  }
  return false;
}
struct UnaryReads {
  bool input, output;
};
constexpr UnaryReads kUnaryReads[] = {
#define GL_UNARY(E, name, policy, inplace, node, doc, ...) \
  {derivative_mentions(#__VA_ARGS__, "a"), derivative_mentions(#__VA_ARGS__, "out")},
#include "tensor/ops/op_rows.def"
};
static_assert(!kUnaryReads[size_t(UnaryOp::Exp)].input && kUnaryReads[size_t(UnaryOp::Exp)].output);
static_assert(kUnaryReads[size_t(UnaryOp::Log)].input && !kUnaryReads[size_t(UnaryOp::Log)].output);

}  // namespace gl

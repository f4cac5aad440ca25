// einsum, composed as PyTorch's: "..." becomes subscripts of its own (Note
// [Einsum ellipsis]), each operand's repeated subscripts become a
// diagonal, subscripts no one else needs are summed away, and operands are
// contracted pairwise, left to right, as one batched matmul each (batch,
// left-only, contracted and right-only subscripts grouped by permute and
// reshape); the result is permuted to the output's order.
#include <algorithm>
#include <map>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/ops.h"

namespace gl {

namespace {

struct Term {
  Tensor t;
  std::string subs;  // one letter per dim, all distinct
};

// Sum away the dims whose letter is not in `keep`.
Term sum_out(Term a, const std::string& keep) {
  std::vector<int64_t> dims;
  std::string rest;
  for (size_t i = 0; i < a.subs.size(); ++i) {
    if (keep.find(a.subs[i]) == std::string::npos) dims.push_back(int64_t(i));
    else rest += a.subs[i];
  }
  if (dims.empty()) return a;
  return {sum(a.t, dims, false), rest};
}

// The diagonal over repeated letters ('ii' -> 'i'), as strided views of a
// contiguous copy (autograd through a mask: x * eye summed over one copy).
Term diagonals(const Tensor& x, const std::string& subs) {
  Term a{x, subs};
  for (;;) {
    size_t i = 0, j = std::string::npos;
    for (; i < a.subs.size() && j == std::string::npos; ++i) j = a.subs.find(a.subs[i], i + 1);
    if (j == std::string::npos) return a;
    --i;
    GL_CHECK(a.t.size(int64_t(i)) == a.t.size(int64_t(j)), "einsum(): subscript ", a.subs[i],
             " is repeated for operand but the sizes don't match, ", a.t.size(int64_t(i)),
             " != ", a.t.size(int64_t(j)));
    const int64_t n = a.t.size(int64_t(i));
    Shape es(a.t.dim(), 1);
    es[i] = n;
    es[j] = n;
    Tensor eye_ = reshape(eye(n, n, {a.t.dtype(), a.t.device()}), es);
    Tensor r = sum(mul(a.t, eye_), {int64_t(j)}, false);
    a = {r, a.subs.substr(0, j) + a.subs.substr(j + 1)};
  }
}

// a and b contracted over the letters they share that `keep` lacks.
Term contract(Term a, Term b, const std::string& keep) {
  std::string batch, left, right, con;
  for (char c : a.subs) {
    const bool in_b = b.subs.find(c) != std::string::npos, kept = keep.find(c) != std::string::npos;
    if (in_b && kept) batch += c;
    else if (in_b) con += c;
    else left += c;
  }
  for (char c : b.subs)
    if (a.subs.find(c) == std::string::npos) right += c;
  auto size_of = [](const Term& t, char c) { return t.t.size(int64_t(t.subs.find(c))); };
  auto perm_of = [](const Term& t, const std::string& order) {
    Shape p;
    for (char c : order) p.push_back(int64_t(t.subs.find(c)));
    return p;
  };
  if (con.empty()) {  // nothing to contract: a broadcast product, as PyTorch's (MulBackward0)
    Tensor at = permute(a.t, perm_of(a, batch + left)), bt = permute(b.t, perm_of(b, batch + right));
    Shape as = at.sizes(), bs = bt.sizes();
    as.insert(as.end(), right.size(), 1);
    bs.insert(bs.begin() + int64_t(batch.size()), left.size(), 1);
    return {mul(reshape(at, as), reshape(bt, bs)), batch + left + right};
  }
  int64_t B = 1, L = 1, R = 1, C = 1;
  Shape out_shape;
  for (char c : batch) {
    const int64_t sa = size_of(a, c), sb = size_of(b, c);
    GL_CHECK(sa == sb || sa == 1 || sb == 1,
             "einsum(): operands do not broadcast with remapped shapes (original->remapped)");
    B *= std::max(sa, sb);
    out_shape.push_back(std::max(sa, sb));
  }
  for (char c : left) {
    L *= size_of(a, c);
    out_shape.push_back(size_of(a, c));
  }
  for (char c : right) {
    R *= size_of(b, c);
    out_shape.push_back(size_of(b, c));
  }
  for (char c : con) C *= size_of(a, c);
  // Broadcast the batch dims of size 1 (einsum allows it for batch letters).
  Shape ae, be;
  Tensor at = permute(a.t, perm_of(a, batch + left + con)), bt = permute(b.t, perm_of(b, batch + con + right));
  Shape asz = at.sizes(), bsz = bt.sizes();
  for (size_t i = 0; i < batch.size(); ++i) asz[i] = bsz[i] = out_shape[i];
  at = reshape(expand(at, asz), {B, L, C});
  bt = reshape(expand(bt, bsz), {B, C, R});
  Tensor r = reshape(bmm(at, bt), out_shape);
  return {r, batch + left + right};
}

}  // namespace

// Note [Einsum ellipsis]: each operand's "..." stands for its dims that no
// letter names, right-aligned across operands (so they broadcast); they become
// fresh subscripts outside [a-zA-Z], one per dim of the widest ellipsis, and
// the output keeps them where its own "..." is (first when the output is
// implicit) or sums them away.
namespace {
char fresh(int64_t i) { return char(0x80 + i); }
bool is_fresh(char c) { return (static_cast<unsigned char>(c) & 0x80) != 0; }

// One side of the equation: its letters with "..." marked by one '.'; the
// errors PyTorch gives for stray dots.
std::string parse_side(const std::string& s, const std::string& what) {
  std::string r;
  bool ellipsis = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '.') {
      r += s[i];
      continue;
    }
    GL_CHECK(!ellipsis, "einsum(): found '.' for ", what, " for which an ellipsis was already found");
    GL_CHECK(s.compare(i, 3, "...") == 0, "einsum(): found '.' for ", what, " that is not part of any ellipsis",
             what == "output" ? " (...)" : "");
    ellipsis = true;
    r += '.';
    i += 2;
  }
  return r;
}
}  // namespace

Tensor einsum(const std::string& eq0, const std::vector<Tensor>& ops) {
  if (autocast::Scope ac{autocast::Op::einsum, ops}) return einsum(eq0, ac(ops));  // Note [Autocast]
  std::string eq;
  for (char c : eq0)
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> subs;
  for (size_t at = 0;;) {
    const size_t comma = lhs.find(',', at);
    subs.push_back(lhs.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  GL_CHECK(subs.size() <= ops.size(), "einsum(): fewer operands were provided than specified in the equation");
  GL_CHECK(subs.size() >= ops.size(), "einsum(): more operands were provided than specified in the equation");
  // Note [Einsum ellipsis]
  int64_t ell = 0;
  std::vector<int64_t> ell_k(subs.size(), -1);
  for (size_t k = 0; k < subs.size(); ++k) {
    subs[k] = parse_side(subs[k], cat("operand ", k));
    const bool has = subs[k].find('.') != std::string::npos;
    const int64_t letters = int64_t(subs[k].size()) - int64_t(has);
    for (size_t i = 0; i < subs[k].size(); ++i) {
      const char c = subs[k][i];
      GL_CHECK(c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'),
               "einsum(): invalid subscript given at index ", i,
               " in the equation string, subscripts must be in [a-zA-Z]");
    }
    if (has) {
      GL_CHECK(letters <= ops[k].dim(), "einsum(): the number of subscripts in the equation (", letters,
               ") is more than the number of dimensions (", ops[k].dim(), ") for operand ", k);
      ell_k[k] = ops[k].dim() - letters;
      ell = std::max(ell, ell_k[k]);
    } else {
      GL_CHECK(letters == ops[k].dim(), "einsum(): the number of subscripts in the equation (", letters,
               ") does not match the number of dimensions (", ops[k].dim(), ") for operand ", k,
               " and no ellipsis was given");
    }
  }
  std::string all_fresh;
  for (int64_t i = 0; i < ell; ++i) all_fresh += fresh(i);
  for (size_t k = 0; k < subs.size(); ++k) {
    const size_t dot = subs[k].find('.');
    if (dot != std::string::npos) subs[k].replace(dot, 1, all_fresh.substr(size_t(ell - ell_k[k])));
  }
  std::map<char, int64_t> count, size;
  for (size_t k = 0; k < subs.size(); ++k) {
    for (size_t i = 0; i < subs[k].size(); ++i) {
      const char c = subs[k][i];
      ++count[c];
      const int64_t s = ops[k].size(int64_t(i));
      auto it = size.find(c);
      if (it == size.end() || it->second == 1) size[c] = s;
      else if (is_fresh(c))  // PyTorch's words, its missing space included
        GL_CHECK(s == 1 || s == it->second, "einsum(): dimension ", i, " covered by ellipsis in operand ", k,
                 "has size ", s, " which does not broadcast with previously seen ellipsis with size ", it->second,
                 " for the respective dimension");
      else
        GL_CHECK(s == 1 || s == it->second, "einsum(): subscript ", c, " has size ", s, " for operand ", k,
                 " which does not broadcast with previously seen size ", it->second);
    }
  }
  std::string out;
  if (arrow == std::string::npos) {  // implicit: the ellipsis, then the letters seen once, in alphabetical order
    out = all_fresh;
    for (auto& [c, n] : count)
      if (n == 1 && !is_fresh(c)) out += c;
  } else {
    out = parse_side(eq.substr(arrow + 2), "output");
    for (char c : out)
      GL_CHECK(c == '.' || count.count(c), "einsum(): output subscript ", c,
               " does not appear in the equation for any input operand");
    if (const size_t dot = out.find('.'); dot != std::string::npos) out.replace(dot, 1, all_fresh);
  }
  GL_CHECK(!ops.empty(), "einsum(): must provide at least one operand");
  std::vector<const Tensor*> ps;
  for (const auto& t : ops) ps.push_back(&t);
  common_device(ps);
  // Left to right: each intermediate keeps the letters the output or a later operand needs.
  Term acc = diagonals(ops[0], subs[0]);
  if (ops.size() == 1) {  // PyTorch's order: permute to the output's letters first, then sum the rest
    std::string order = out;
    for (char c : acc.subs)
      if (out.find(c) == std::string::npos) order += c;
    Shape p;
    for (char c : order) p.push_back(int64_t(acc.subs.find(c)));
    Tensor r = permute(acc.t, p);
    std::vector<int64_t> rest;
    for (size_t i = out.size(); i < order.size(); ++i) rest.push_back(int64_t(i));
    return rest.empty() ? r : sum(r, rest, false);
  }
  for (size_t k = 0;; ++k) {
    std::string keep = out;
    for (size_t j = k + 1; j < subs.size(); ++j) keep += subs[j];
    if (k == 0) acc = sum_out(acc, keep);
    if (k + 1 == subs.size()) break;
    std::string keep_after = out;
    for (size_t j = k + 2; j < subs.size(); ++j) keep_after += subs[j];
    Term next = diagonals(ops[k + 1], subs[k + 1]);
    acc = sum_out(acc, keep_after + next.subs);
    next = sum_out(next, keep_after + acc.subs);
    acc = contract(acc, next, keep_after);
  }
  // Letters shared by no one else, still present when only one operand: summed by sum_out above.
  Shape perm;
  for (char c : out) perm.push_back(int64_t(acc.subs.find(c)));
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == int64_t(i);
  return identity ? acc.t : permute(acc.t, perm);
}

}  // namespace gl

// Sorting/selection, shape and norm ops (ops/sort_ops, shape_ops,
// linalg_extra, einsum): the line math against brute force on random lines
// with ties and NaN, and the composites' gradients by finite differences,
// on cpu and cuda:1. Exact PyTorch outputs: tests/lua/test_b2_ops.lua.
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include "gradcheck.h"
#include "tensor/kernels/sort.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/shape_ops.h"
#include "tensor/ops/sort_ops.h"
#include "unit_util.h"

using namespace gl;
using ut::vals;

namespace {
// Ascending with NaN last, ties by index: the order a stable sort gives.
std::vector<int64_t> stable_order(const std::vector<double>& v) {
  std::vector<int64_t> ix(v.size());
  std::iota(ix.begin(), ix.end(), 0);
  std::stable_sort(ix.begin(), ix.end(), [&](int64_t a, int64_t b) { return sortk::lt(v[size_t(a)], v[size_t(b)]); });
  return ix;
}
std::vector<double> random_line(std::mt19937& g, int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& e : v) e = double(g() % 5);
  if (g() % 4 == 0) v[g() % size_t(n)] = NAN;
  return v;
}
}  // namespace

TEST_CASE("sort kernels: quickselect and median pick the k-th of the stable order") {
  std::mt19937 g(3);
  for (int trial = 0; trial < 500; ++trial) {
    const int64_t n = 1 + int64_t(g() % 40);
    auto v = random_line(g, n);
    const auto order = stable_order(v);
    const int64_t k = 1 + int64_t(g() % uint32_t(n));
    std::vector<double> scratch = v;
    std::vector<int64_t> ix(static_cast<size_t>(n));
    std::iota(ix.begin(), ix.end(), 0);
    sortk::quickselect(scratch.data(), ix.data(), n, k - 1);
    const double want = v[size_t(order[size_t(k - 1)])], got = scratch[size_t(k - 1)];
    CHECK(((std::isnan(want) && std::isnan(got)) || want == got));
    CHECK(((std::isnan(v[size_t(ix[size_t(k - 1)])]) && std::isnan(got)) || v[size_t(ix[size_t(k - 1)])] == got));
    // median: the (n-1)/2-th of the stable order, or the first NaN
    SortSpec s;
    std::vector<double> mv = v, out(1);
    std::vector<int64_t> mix(static_cast<size_t>(n)), oi(1);
    s.values = reinterpret_cast<char*>(mv.data());
    s.indices = mix.data();
    s.out = reinterpret_cast<char*>(out.data());
    s.out_indices = oi.data();
    s.len = n;
    s.lines = 1;
    sortk::median_line<double>(s, 0);
    auto first_nan = std::find_if(v.begin(), v.end(), [](double e) { return std::isnan(e); });
    const int64_t want_i = first_nan != v.end() ? int64_t(first_nan - v.begin()) : order[size_t((n - 1) / 2)];
    CHECK(oi[0] == want_i);
  }
}

TEST_CASE("sort: stable, NaN last, along any dim, on every device") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor x = ut::tens({2, NAN, 1, 2, 0, 1}, {2, 3}, DType::Float32, d);
    auto [v, i] = sort(x, 0, false, true);
    CHECK(vals(i) == std::vector<double>{0, 1, 0, 1, 0, 1});
    auto [v2, i2] = sort(x, -1, true, true);
    CHECK(vals(i2) == std::vector<double>{1, 0, 2, 0, 2, 1});
    CHECK(std::isnan(vals(v2)[0]));
    CHECK(v2.device() == d);
  }
}

TEST_CASE("unique_dim: random small-integer matrices against a std::set of rows, on every device") {
  std::mt19937 g(11);
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    for (int trial = 0; trial < 40; ++trial) {
      const int64_t n = 1 + int64_t(g() % 9), m = 1 + int64_t(g() % 3);
      std::vector<double> v(size_t(n * m));
      for (auto& e : v) e = double(g() % 3);
      Tensor x = ut::tens(v, {n, m}, DType::Float32, d);
      UniqueResult r = unique_dim(x, 0, true, true);
      std::vector<std::vector<double>> rows;
      for (int64_t i = 0; i < n; ++i) rows.emplace_back(v.begin() + i * m, v.begin() + (i + 1) * m);
      std::vector<std::vector<double>> want = rows;
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      REQUIRE(r.values.size(0) == int64_t(want.size()));
      const std::vector<double> got = vals(r.values), inv = vals(r.inverse), cnt = vals(r.counts);
      std::vector<double> count(want.size(), 0);
      for (size_t u = 0; u < want.size(); ++u)
        CHECK(std::vector<double>(got.begin() + u * m, got.begin() + (u + 1) * m) == want[u]);
      for (int64_t i = 0; i < n; ++i) {  // each row's inverse names its own row of the result
        CHECK(want[size_t(inv[size_t(i)])] == rows[size_t(i)]);
        count[size_t(inv[size_t(i)])] += 1;
      }
      CHECK(cnt == count);
      // along dim 1, the same as along dim 0 of the transpose
      UniqueResult c = unique_dim(x, 1, false, false), ct = unique_dim(contiguous(transpose(x, 0, 1)), 0, false, false);
      CHECK(vals(contiguous(transpose(c.values, 0, 1))) == vals(ct.values));
    }
  }
}

TEST_CASE("sort/shape/norm ops: gradients by finite differences") {
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    std::vector<double> xv{0.3, -1.2, 2.5, 0.7, -0.4, 1.9};
    ut::gradcheck("sort", [](const std::vector<Tensor>& a) { return sort(a[0], 1, true, false).first; },
                  {ut::leaf(xv, {2, 3}, d)});
    ut::gradcheck("topk", [](const std::vector<Tensor>& a) { return topk(a[0], 2, 0, false, true).first; },
                  {ut::leaf(xv, {3, 2}, d)});
    ut::gradcheck("kthvalue", [](const std::vector<Tensor>& a) { return kthvalue(a[0], 2, 1, false).first; },
                  {ut::leaf(xv, {2, 3}, d)});
    ut::gradcheck("median", [](const std::vector<Tensor>& a) { return median_dim(a[0], 0, true).first; },
                  {ut::leaf(xv, {3, 2}, d)});
    ut::gradcheck("tril", [](const std::vector<Tensor>& a) { return tril(a[0], 0); }, {ut::leaf(xv, {2, 3}, d)});
    ut::gradcheck("diag", [](const std::vector<Tensor>& a) { return diag(a[0], 1); }, {ut::leaf(xv, {2, 3}, d)});
    ut::gradcheck("trace", [](const std::vector<Tensor>& a) { return trace(a[0]); }, {ut::leaf(xv, {2, 3}, d)});
    ut::gradcheck("mv", [](const std::vector<Tensor>& a) { return mv(a[0], a[1]); },
                  {ut::leaf(xv, {2, 3}, d), ut::leaf({1, 2, 3}, {3}, d)});
    ut::gradcheck("amax_dims",
                  [](const std::vector<Tensor>& a) {
                    return amax_dims(a[0], {0, 2}, false);
                  },
                  {ut::leaf(xv, {2, 3, 1}, d)});
    ut::gradcheck("logsumexp", [](const std::vector<Tensor>& a) { return logsumexp(a[0], {1}, false); },
                  {ut::leaf(xv, {2, 3}, d)});
    for (double ord : std::vector<double>{2.0, 1.0, 3.0, 0.5, double(INFINITY)})
      ut::gradcheck("vector_norm", [ord](const std::vector<Tensor>& a) { return vector_norm(a[0], ord, {1}, false); },
                    {ut::leaf(xv, {2, 3}, d)});
    ut::gradcheck("einsum",
                  [](const std::vector<Tensor>& a) {
                    return einsum("ij,kj->ik", {a[0], a[1]});
                  },
                  {ut::leaf(xv, {2, 3}, d), ut::leaf({1, 0, 2, -1, 3, 1}, {2, 3}, d)});
  }
}

TEST_CASE("einsum agrees with matmul, sum and outer") {
  for (Device d : ut::test_devices()) {
    Tensor a = ut::tens({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32, d),
           b = ut::tens({1, 0, -1, 2, 0, 1}, {3, 2}, DType::Float32, d);
    CHECK(vals(einsum("ij,jk->ik", {a, b})) == vals(matmul(a, b)));
    CHECK(vals(einsum("ij->", {a})) == vals(sum(a, {}, false)));
    CHECK(vals(einsum("ij->ji", {a})) == vals(contiguous(transpose(a, 0, 1))));
    Tensor v = ut::tens({1, 2}, {2}, DType::Float32, d);
    CHECK(vals(einsum("i,j->ij", {v, v})) == vals(outer(v, v)));
    // "..." names the dims no letter names: a batch of products, broadcast
    Tensor a3 = reshape(
        arange(Scalar::from_int(0), Scalar::from_int(12), Scalar::from_int(1), DType::Float32, {DType::Float32, d}),
        {2, 2, 3});
    CHECK(vals(einsum("...ij,jk->...ik", {a3, b})) == vals(matmul(a3, b)));
    CHECK(vals(einsum("...ij->...ji", {a3})) == vals(contiguous(transpose(a3, 1, 2))));
    CHECK(vals(einsum("...ij->ij", {a3})) == vals(sum(a3, {0}, false)));
    CHECK(einsum("...,...->...", {ones({3, 1}, {DType::Float32, d}), ones({4}, {DType::Float32, d})}).sizes() ==
          Shape{3, 4});
  }
}

TEST_CASE("linalg_svdvals: descending, squares sum to the Frobenius norm, and the matrix norms built on them") {
  std::mt19937 g(5);
  for (Device d : ut::test_devices()) {
    CAPTURE(d.str());
    Tensor M = ut::tens({1, -2, 3, 4}, {2, 2}, DType::Float64, d);
    const auto s = vals(linalg_svdvals(M));
    // PyTorch 2.15: 5.1167, 1.9544 (sqrt(15 +- sqrt(125)))
    CHECK(std::fabs(s[0] - std::sqrt(15 + std::sqrt(125.0))) < 1e-12);
    CHECK(std::fabs(s[1] - std::sqrt(15 - std::sqrt(125.0))) < 1e-12);
    CHECK(vals(matrix_norm(M, "nuc", std::nullopt, {}, false))[0] == doctest::Approx(s[0] + s[1]));
    CHECK(vals(matrix_norm(M, "", 2.0, {}, false))[0] == doctest::Approx(s[0]));
    CHECK(vals(matrix_norm(M, "", -2.0, {}, false))[0] == doctest::Approx(s[1]));
    for (int trial = 0; trial < 20; ++trial) {
      const int64_t m = 1 + int64_t(g() % 5), n = 1 + int64_t(g() % 5);
      std::vector<double> v(size_t(3 * m * n));
      double fro2 = 0;
      for (auto& e : v) {
        e = double(int(g() % 11) - 5) / 4;
        fro2 += e * e;
      }
      const auto sv = vals(linalg_svdvals(ut::tens(v, {3, m, n}, DType::Float64, d)));
      REQUIRE(sv.size() == size_t(3 * std::min(m, n)));
      double sum2 = 0;
      for (size_t i = 0; i < sv.size(); ++i) {
        sum2 += sv[i] * sv[i];
        if (i % size_t(std::min(m, n)) != 0) CHECK(sv[i] <= sv[i - 1] + 1e-12);
      }
      CHECK(sum2 == doctest::Approx(fro2).epsilon(1e-10));
    }
  }
}

// The derivative rows (tensor/autograd/derivative_rows.def, Note [Derivative
// rows]): every row has a case (derivative_cases.h), and the check is
// generated from the rows themselves, so a row added without one fails. Each case runs its op on the CPU and on the
// virtual cuda:1 and checks that the op records that row (the row's struct is
// a node's backward in the graph) and that the row's derivative matches
// central finite differences, or, for the nodes PyTorch has no derivative
// for, that backward raises PyTorch's error.
#include <doctest/doctest.h>
#include <deque>
#include <map>
#include <set>
#include "derivative_cases.h"
#include "gradcheck.h"
#include "tensor/autograd/derivatives.h"

using namespace gl;
using gl::dcases::Case;
using gl::dcases::In;
using gl::dcases::ones_of;

namespace {

std::map<std::string, Case> cases() {
  dcases::Cases c;
  dcases::linalg_cases(c);
  dcases::shape_cases(c);
  dcases::nn_cases(c);
  return c;
}

// Whether some node of out's graph runs Row as its backward.
template <class Row> bool graph_has(const Tensor& out) {
  std::deque<std::shared_ptr<Node>> todo{out.grad_fn()};
  std::set<Node*> seen;
  while (!todo.empty()) {
    auto n = todo.front();
    todo.pop_front();
    if (!n || !seen.insert(n.get()).second) continue;
    if (n->backward.template target<Row>()) return true;
    for (auto& e : n->next) todo.push_back(e);
  }
  return false;
}

template <class Row>
void check_row(const char* name, const std::map<std::string, Case>& all, std::set<std::string>& done) {
  CAPTURE(std::string(name));
  auto it = all.find(name);
  REQUIRE_MESSAGE(it != all.end(), "a derivative row without a case in derivative_cases_*.cpp: ", name);
  done.insert(name);
  const Case& c = it->second;
  for (Device d : ut::test_devices()) {
    if (c.on && !c.on(d)) continue;
    CAPTURE(d.str());
    In inputs = c.inputs(d);
    Tensor out = c.f(inputs);
    REQUIRE(out.grad_fn() != nullptr);
    CHECK_MESSAGE(graph_has<Row>(out), name, " is not recorded by its case's op");
    if (c.error) {
      CHECK(ut::error_of([&] { run_backward(out, ones_of(out), false); }) == c.error);
    } else if (c.zero) {
      run_backward(out, ones_of(out), false);
      for (const Tensor& x : inputs) {
        REQUIRE(x.grad().defined());
        CHECK(item(sum(unary(UnaryOp::Abs, x.grad()), {}, false)).to_double() == 0);
      }
    } else {
      ut::gradcheck(name, c.f, c.inputs(d), c.eps, c.tol);
    }
  }
}

}  // namespace

TEST_CASE("derivatives: every row is recorded by its op and matches finite differences") {
  const std::map<std::string, Case> all = cases();
  std::set<std::string> done;
#define GL_NODE(Name, ...) check_row<Name>(#Name, all, done);
#include "tensor/autograd/derivative_rows.def"
  for (const auto& [name, c] : all) CHECK_MESSAGE(done.count(name), "a case for no row: ", name);
}

//===- LayoutLabelingTest.cpp - Alpha-expansion against brute force -------===//

#include "opsnn/Analysis/LayoutLabeling.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::opsnn;

namespace {
double bruteForceMinimum(const LabelingProblem &problem) {
  unsigned n = problem.getNumNodes();
  std::vector<unsigned> labels(n, 0);
  double best = problem.evaluate(labels);
  while (true) {
    unsigned i = 0;
    while (i < n && ++labels[i] == problem.numLabels)
      labels[i++] = 0;
    if (i == n)
      return best;
    best = std::min(best, problem.evaluate(labels));
  }
}

LabelingProblem randomProblem(std::mt19937 &rng, unsigned nodes,
                              unsigned labels, unsigned edges) {
  std::uniform_real_distribution<double> cost(0.0, 10.0);
  std::uniform_int_distribution<unsigned> node(0, nodes - 1);
  LabelingProblem problem;
  problem.numLabels = labels;
  for (unsigned i = 0; i < nodes; ++i) {
    problem.unary.emplace_back();
    for (unsigned l = 0; l < labels; ++l)
      problem.unary.back().push_back(cost(rng));
  }
  for (unsigned e = 0; e < edges; ++e) {
    unsigned a = node(rng), b = node(rng);
    if (a != b)
      problem.edges.push_back({a, b, cost(rng)});
  }
  return problem;
}

TEST(LayoutLabeling, TwoLabelsAreSolvedExactly) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    LabelingProblem problem = randomProblem(rng, 9, 2, 14);
    std::vector<unsigned> labels =
        solveLabeling(problem, std::vector<unsigned>(9, 0));
    EXPECT_NEAR(problem.evaluate(labels), bruteForceMinimum(problem), 1e-9)
        << "trial " << trial;
  }
}

TEST(LayoutLabeling, ThreeLabelsWithinTwiceTheOptimum) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    LabelingProblem problem = randomProblem(rng, 7, 3, 10);
    std::vector<unsigned> initial(7, 1);
    double start = problem.evaluate(initial);
    double found = problem.evaluate(solveLabeling(problem, initial));
    double optimum = bruteForceMinimum(problem);
    EXPECT_LE(found, start + 1e-9);
    EXPECT_LE(found, 2 * optimum + 1e-9) << "trial " << trial;
  }
}

TEST(LayoutLabeling, ForbiddenLabelsAreNeverChosen) {
  // A chain a - b - c where b may not take label 1, while a and c prefer
  // it: the cheap middle op is not worth two conversions either way.
  LabelingProblem problem;
  problem.numLabels = 2;
  problem.unary = {{5, 1}, {0, LabelingProblem::kForbidden}, {5, 1}};
  problem.edges = {{0, 1, 3}, {1, 2, 3}};
  std::vector<unsigned> labels = solveLabeling(problem, {0, 0, 0});
  EXPECT_EQ(labels[1], 0u);
  EXPECT_EQ(labels[0], 1u); // 1 + 3 < 5
  EXPECT_EQ(labels[2], 1u);
}

TEST(LayoutLabeling, CheapOpBetweenTwoConvsFollowsThem) {
  // conv -> relu -> conv: the convs gain 4 each from label 1; the relu
  // does not care. Greedy (only the convs move) pays two conversions of 3.
  LabelingProblem problem;
  problem.numLabels = 2;
  problem.unary = {{10, 6}, {1, 1}, {10, 6}};
  problem.edges = {{0, 1, 3}, {1, 2, 3}};
  std::vector<unsigned> labels = solveLabeling(problem, {0, 0, 0});
  EXPECT_EQ(labels, (std::vector<unsigned>{1, 1, 1}));
  EXPECT_DOUBLE_EQ(problem.evaluate(labels), 13);
}
} // namespace

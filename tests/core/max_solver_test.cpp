// The max solver: the largest batch and seq_len that fit, exactly at the boundary.
#include <catch2/catch.hpp>

#include "plan/estimate.h"
#include "plan/max_solver.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
bool fits(Scenario s, const Gpu& gpu) {
  return estimate_memory(s, &gpu).per_gpu_bytes <= usable_bytes(s, gpu);
}

void check_boundary(const Scenario& s, const Gpu& gpu) {
  const MaxFit m = max_fit(s, gpu);
  REQUIRE(m.batch > 0);
  REQUIRE(m.seq_len > 0);
  Scenario at = s, over = s;
  at.batch = m.batch;
  over.batch = m.batch + 1;
  CHECK(fits(at, gpu));
  CHECK_FALSE(fits(over, gpu));
}
}  // namespace

TEST_CASE("Max batch fits and one more does not", "[max][training]") {
  const Gpu& a100 = *find_gpu("a100-80gb");
  check_boundary(parse_scenario(json{{"model", "llama-3.1-8b"}, {"task", "lora"}, {"seq_len", 4096}}), a100);
  check_boundary(parse_scenario(json{{"model", "qwen2.5-7b"}, {"seq_len", 8192}}), a100);
}

TEST_CASE("Max seq_len sits at the fit boundary", "[max][training]") {
  const Gpu& h100 = *find_gpu("h100-80gb");
  const Scenario s = parse_scenario(json{{"model", "llama-3.1-8b"}, {"task", "qlora"}, {"batch", 4}});
  const MaxFit m = max_fit(s, h100);
  Scenario at = s, over = s;
  at.seq_len = m.seq_len;
  over.seq_len = m.seq_len + 1;
  CHECK(fits(at, h100));
  CHECK_FALSE(fits(over, h100));
}

TEST_CASE("Memory is monotone in batch and seq_len, so the search is exact", "[max][training]") {
  Scenario s = parse_scenario(json{{"model", "qwen2.5-3b"}, {"task", "full"}, {"flash_attention", false}});
  const Gpu& gpu = *find_gpu("h100-80gb");
  double previous = 0;
  for (int64_t b = 1; b <= 64; b *= 2) {
    s.batch = b;
    const double now = estimate_memory(s, &gpu).per_gpu_bytes;
    CHECK(now > previous);
    previous = now;
  }
}

TEST_CASE("Nothing fits: zeros, and the estimate JSON carries max with a GPU", "[max][training]") {
  const Scenario big = parse_scenario(json{{"model", "llama-3.1-70b"}, {"task", "full"}, {"gpu", "t4"}});
  const MaxFit none = max_fit(big, *find_gpu("t4"));
  CHECK(none.batch == 0);
  CHECK(none.seq_len == 0);
  const json j = to_json(estimate(parse_scenario(json{{"model", "qwen2.5-7b"}, {"gpu", "a100-80gb"}})));
  CHECK(j["max"]["batch"].get<int64_t>() > 100);
  CHECK(j["max"]["seq_len"].get<int64_t>() > 100000);
  CHECK_FALSE(to_json(estimate(parse_scenario(json{{"model", "qwen2.5-7b"}}))).contains("max"));
}

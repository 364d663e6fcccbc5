// xrc_bench --self-test: what can be checked without the device.
#include "ops.hpp"
#include "report.hpp"
#include "stats.hpp"

#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace xrc_bench {

using namespace xrcrcv;

namespace {

int failures = 0;
int checks = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "bench self-test: FAIL: %s\n", what.c_str());
  }
}

std::vector<std::byte> drain(int fd) {
  std::vector<std::byte> buf(4096);
  const ssize_t n = ::read(fd, buf.data(), buf.size());
  buf.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return buf;
}

// The bytes are the same but for the response pointer (8 bytes at
// `resp_at` in the request, if any), which points at each sender's own
// buffer.
void same_command(const char* name, std::vector<std::byte> ours, std::vector<std::byte> lib,
                  long resp_at) {
  const std::size_t hdr = sizeof(ib_uverbs_cmd_hdr);
  expect(ours.size() == lib.size() && !ours.empty(),
         std::string(name) + ": " + std::to_string(ours.size()) + " bytes, library sends " +
             std::to_string(lib.size()));
  if (ours.size() != lib.size() || ours.empty()) return;
  if (resp_at >= 0) {
    std::memset(ours.data() + hdr + resp_at, 0, 8);
    std::memset(lib.data() + hdr + resp_at, 0, 8);
  }
  expect(ours == lib, std::string(name) + ": bytes differ from xrcrcv::cmd::");
}

// The same ioctl call but for the PTR_OUT attribute of id `out_id` (-1:
// none), whose pointer is each encoder's own buffer.
void same_ioctl(const char* name, std::span<const std::uint64_t> ours_in,
                std::vector<std::uint64_t> lib, int out_id) {
  std::vector<std::uint64_t> ours(ours_in.begin(), ours_in.end());
  expect(ours.size() == lib.size() && !ours.empty(), std::string(name) + ": ioctl length");
  if (ours.size() != lib.size() || ours.empty()) return;
  for (auto* b : {&ours, &lib}) {
    auto attrs = wire::decode_ioctl_attrs(*b);
    for (std::size_t i = 0; i < attrs.size(); ++i)
      if (out_id >= 0 && attrs[i].attr_id == out_id)
        std::memset(reinterpret_cast<std::byte*>(b->data()) + sizeof(ib_uverbs_ioctl_hdr) +
                        i * sizeof(ib_uverbs_attr) + offsetof(ib_uverbs_attr, data),
                    0, 8);
  }
  expect(ours == lib, std::string(name) + ": ioctl bytes differ from the library's encoding");
}

std::vector<std::byte> drain_nonblocking(int fd) {
  const int fl = ::fcntl(fd, F_GETFL);
  (void)::fcntl(fd, F_SETFL, fl | O_NONBLOCK);
  auto v = drain(fd);
  (void)::fcntl(fd, F_SETFL, fl);
  return v;
}

void encoding() {
  int p[2];
  if (pipe(p) != 0) {
    expect(false, "pipe");
    return;
  }
  UniqueFd rd(p[0]);
  const Context ctx = Context::adopt(UniqueFd(p[1]), UniqueFd());
  Ops ops(ctx.ref(), 7);
  std::uint32_t x = 0;

  // REG and UNREG are ioctl methods: the pre-encoded buffers must be
  // what the library encodes for them (cmd:: sends wire::'s encoding),
  // but for the response pointer.
  same_ioctl("REG", ops.reg_cmd().words(),
             wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP,
                                wire::reg_rcv_qp_attrs(7, 0, &x)),
             UVERBS_ATTR_REG_RCV_QP_RESP_NUM);
  same_ioctl("REG(new)", ops.create_cmd().words(),
             wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP,
                                wire::create_rcv_qp_attrs(7, &x)),
             UVERBS_ATTR_REG_RCV_QP_RESP_NUM);
  same_ioctl("UNREG", ops.unreg_cmd().words(),
             wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_UNREG_RCV_QP,
                                wire::unreg_rcv_qp_attrs(7, 0)),
             -1);
  // On a pipe the ioctls fail (ENOTTY) and write nothing.
  expect(ops.reg(0x1234, &x) == ENOTTY && ops.reg(kNewRcvQp, &x) == ENOTTY &&
             ops.unreg(0x1234) == ENOTTY && drain_nonblocking(rd.get()).empty(),
         "REG/UNREG are ioctls, never written");

  (void)ops.open_qp(0x1234, &x);
  auto ours = drain(rd.get());
  (void)cmd::open_qp(ctx, 7, 0x1234);
  same_command("OPEN_QP", ours, drain(rd.get()), offsetof(ib_uverbs_open_qp, response));

  (void)ops.create_qp(&x, &x);
  ours = drain(rd.get());
  (void)cmd::create_qp_xrc_tgt(ctx, 7);
  same_command("CREATE_QP", ours, drain(rd.get()), offsetof(ib_uverbs_create_qp, response));

  (void)ops.destroy_qp(5);
  ours = drain(rd.get());
  (void)cmd::destroy_qp(ctx, 5);
  same_command("DESTROY_QP", ours, drain(rd.get()), offsetof(ib_uverbs_destroy_qp, response));

  // QUERY_PORT has no cmd:: function: check the header and the port.
  (void)ops.query_port();
  ours = drain(rd.get());
  const auto h = wire::decode_hdr(ours);
  expect(h.command == IB_USER_VERBS_CMD_QUERY_PORT &&
             h.in_words * 4u == sizeof(ib_uverbs_cmd_hdr) + sizeof(ib_uverbs_query_port) &&
             h.out_words * 4u == sizeof(ib_uverbs_query_port_resp) &&
             ours.size() == h.in_words * 4u,
         "QUERY_PORT header");
  ib_uverbs_query_port q{};
  if (ours.size() >= sizeof(ib_uverbs_cmd_hdr) + sizeof q)
    std::memcpy(&q, ours.data() + sizeof(ib_uverbs_cmd_hdr), sizeof q);
  expect(q.port_num == 1, "QUERY_PORT asks for port 1");
}

bool near(double a, double b) { return std::fabs(a - b) < 1e-9; }

void statistics() {
  const Summary s = summarize({4, 1, 3, 2});
  expect(near(s.median, 2.5) && near(s.p25, 1.75) && near(s.p75, 3.25) && near(s.min, 1) &&
             near(s.max, 4) && s.n == 4,
         "summarize {4,1,3,2}");
  expect(near(summarize({7}).median, 7) && near(summarize({7}).p75, 7), "summarize {7}");
  expect(summarize({}).n == 0 && std::isnan(summarize({}).median), "summarize {}");
  const auto r = ratios({2, 9}, {1, 3});
  expect(r.size() == 2 && near(r[0], 2) && near(r[1], 3), "ratios");
}

void json() {
  expect(json_str("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"", "json_str escapes");
  expect(json_num(NAN) == "null" && json_num(1.5) == "1.5", "json_num");
  expect(json_list({1, 10}) == "[1,10]", "json_list");
  Report rep;
  rep.config("trials", "3");
  rep.add(Row{"lat.x", "latency", "x", "us", summarize({1, 2, 3}), {{"k", 0.5}}});
  const std::string j = rep.json(1.0);
  expect(j.find("\"schema\": \"xrc-rcv-bench/1\"") != std::string::npos &&
             j.find("\"id\": \"lat.x\"") != std::string::npos &&
             j.find("\"median\": 2,") != std::string::npos &&
             j.find("\"k\": 0.5") != std::string::npos &&
             j.find("\"config\": {\"trials\": 3}") != std::string::npos,
         "report JSON");
}

}  // namespace

int self_test() {
  encoding();
  statistics();
  json();
  std::printf("bench self-test: %d of %d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}

}  // namespace xrc_bench

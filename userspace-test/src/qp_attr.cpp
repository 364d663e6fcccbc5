#include <xrcrcv/qp_attr.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <utility>

namespace xrcrcv {

QpModify xrc_tgt_to_init(const InitParams& p) {
  QpModify m;
  m.attr.qp_state = QpState::Init;
  m.attr.port_num = p.port;
  m.attr.pkey_index = p.pkey_index;
  m.attr.qp_access_flags = p.access;
  m.mask = QpAttrMask::State | QpAttrMask::PkeyIndex | QpAttrMask::Port | QpAttrMask::AccessFlags;
  return m;
}

QpModify xrc_tgt_to_rtr(const RtrParams& p) {
  QpModify m;
  m.attr.qp_state = QpState::Rtr;
  m.attr.ah_attr.dlid = p.dlid;
  m.attr.ah_attr.port_num = p.port;
  m.attr.path_mtu = p.path_mtu;
  m.attr.dest_qp_num = p.dest_qp_num;
  m.attr.rq_psn = p.rq_psn;
  m.attr.max_dest_rd_atomic = p.max_dest_rd_atomic;
  m.attr.min_rnr_timer = p.min_rnr_timer;
  m.mask = QpAttrMask::State | QpAttrMask::Av | QpAttrMask::PathMtu | QpAttrMask::DestQpn |
           QpAttrMask::RqPsn | QpAttrMask::MaxDestRdAtomic | QpAttrMask::MinRnrTimer;
  return m;
}

QpModify xrc_tgt_to_rts(const RtsParams& p) {
  QpModify m;
  m.attr.qp_state = QpState::Rts;
  m.attr.timeout = p.timeout;
  m.attr.sq_psn = p.sq_psn;
  m.mask = QpAttrMask::State | QpAttrMask::Timeout | QpAttrMask::SqPsn;
  return m;
}

QpModify to_state_only(QpState s) {
  QpModify m;
  m.attr.qp_state = s;
  m.mask = QpAttrMask::State;
  return m;
}

void fill_dest(ib_uverbs_qp_dest& d, const AddressVector& av) {
  std::memcpy(d.dgid, av.dgid.data(), sizeof d.dgid);
  d.flow_label = av.flow_label;
  d.dlid = av.dlid;
  d.reserved = 0;
  d.sgid_index = av.sgid_index;
  d.hop_limit = av.hop_limit;
  d.traffic_class = av.traffic_class;
  d.sl = av.sl;
  d.src_path_bits = av.src_path_bits;
  d.static_rate = av.static_rate;
  d.is_global = av.is_global ? 1 : 0;
  d.port_num = av.port_num;
}

AddressVector from_dest(const ib_uverbs_qp_dest& d) {
  AddressVector av;
  std::memcpy(av.dgid.data(), d.dgid, sizeof d.dgid);
  av.flow_label = d.flow_label;
  av.dlid = d.dlid;
  av.sgid_index = d.sgid_index;
  av.hop_limit = d.hop_limit;
  av.traffic_class = d.traffic_class;
  av.sl = d.sl;
  av.src_path_bits = d.src_path_bits;
  av.static_rate = d.static_rate;
  av.is_global = d.is_global != 0;
  av.port_num = d.port_num;
  return av;
}

namespace {
// MODIFY_QP's struct, which MODIFY_RCV_QP carries as its attribute too
// (with qp_handle 0).
void fill_modify_fields(ib_uverbs_modify_qp& c, const QpAttr& a, QpAttrMask mask) {
  fill_dest(c.dest, a.ah_attr);
  fill_dest(c.alt_dest, a.alt_ah_attr);
  c.attr_mask = to_bits(mask);
  c.qkey = a.qkey;
  c.rq_psn = a.rq_psn;
  c.sq_psn = a.sq_psn;
  c.dest_qp_num = a.dest_qp_num;
  c.qp_access_flags = a.qp_access_flags;
  c.pkey_index = a.pkey_index;
  c.alt_pkey_index = a.alt_pkey_index;
  c.qp_state = std::to_underlying(a.qp_state);
  c.cur_qp_state = std::to_underlying(a.cur_qp_state);
  c.path_mtu = std::to_underlying(a.path_mtu);
  c.path_mig_state = a.path_mig_state;
  c.en_sqd_async_notify = a.en_sqd_async_notify ? 1 : 0;
  c.max_rd_atomic = a.max_rd_atomic;
  c.max_dest_rd_atomic = a.max_dest_rd_atomic;
  c.min_rnr_timer = a.min_rnr_timer;
  c.port_num = a.port_num;
  c.timeout = a.timeout;
  c.retry_cnt = a.retry_cnt;
  c.rnr_retry = a.rnr_retry;
  c.alt_port_num = a.alt_port_num;
  c.alt_timeout = a.alt_timeout;
  c.reserved[0] = 0;
  c.reserved[1] = 0;
}
}  // namespace

ib_uverbs_modify_qp encode_modify_qp(std::uint32_t qp_handle, const QpAttr& a, QpAttrMask mask) {
  ib_uverbs_modify_qp c{};
  c.qp_handle = qp_handle;
  fill_modify_fields(c, a, mask);
  return c;
}

QpAttr decode_query_resp(const ib_uverbs_query_qp_resp& r) {
  QpAttr a;
  a.ah_attr = from_dest(r.dest);
  a.alt_ah_attr = from_dest(r.alt_dest);
  a.cap = {r.max_send_wr, r.max_recv_wr, r.max_send_sge, r.max_recv_sge, r.max_inline_data};
  a.qkey = r.qkey;
  a.rq_psn = r.rq_psn;
  a.sq_psn = r.sq_psn;
  a.dest_qp_num = r.dest_qp_num;
  a.qp_access_flags = r.qp_access_flags;
  a.pkey_index = r.pkey_index;
  a.alt_pkey_index = r.alt_pkey_index;
  a.qp_state = static_cast<QpState>(r.qp_state);
  a.cur_qp_state = static_cast<QpState>(r.cur_qp_state);
  a.path_mtu = static_cast<Mtu>(r.path_mtu);
  a.path_mig_state = r.path_mig_state;
  a.sq_draining = r.sq_draining != 0;
  a.max_rd_atomic = r.max_rd_atomic;
  a.max_dest_rd_atomic = r.max_dest_rd_atomic;
  a.min_rnr_timer = r.min_rnr_timer;
  a.port_num = r.port_num;
  a.timeout = r.timeout;
  a.retry_cnt = r.retry_cnt;
  a.rnr_retry = r.rnr_retry;
  a.alt_port_num = r.alt_port_num;
  a.alt_timeout = r.alt_timeout;
  a.sq_sig_all = r.sq_sig_all != 0;
  return a;
}

namespace {
constexpr std::array<std::string_view, 7> kStateNames = {"RESET", "INIT", "RTR", "RTS",
                                                         "SQD",   "SQE",  "ERR"};
constexpr std::array<std::string_view, 21> kMaskNames = {
    "STATE",    "CUR_STATE",   "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX",
    "PORT",     "QKEY",        "AV",                  "PATH_MTU",     "TIMEOUT",
    "RETRY_CNT", "RNR_RETRY",  "RQ_PSN",              "MAX_QP_RD_ATOMIC", "ALT_PATH",
    "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC",  "PATH_MIG_STATE", "CAP",
    "DEST_QPN"};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::ranges::equal(a, b, [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) ==
                  std::toupper(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::string_view to_string(QpState s) {
  const auto i = std::to_underlying(s);
  return i < kStateNames.size() ? kStateNames[i] : std::string_view("UNKNOWN");
}

std::optional<QpState> parse_qp_state(std::string_view s) {
  for (std::size_t i = 0; i < kStateNames.size(); ++i)
    if (iequals(s, kStateNames[i])) return static_cast<QpState>(i);
  if (iequals(s, "error")) return QpState::Err;
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && p == s.data() + s.size() && v < kStateNames.size())
    return static_cast<QpState>(v);
  return std::nullopt;
}

unsigned mtu_bytes(Mtu m) { return 128U << std::to_underlying(m); }

std::optional<Mtu> parse_mtu(std::string_view s) {
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  if (v >= 1 && v <= 5) return static_cast<Mtu>(v);
  for (unsigned e = 1; e <= 5; ++e)
    if (v == (128U << e)) return static_cast<Mtu>(e);
  return std::nullopt;
}

std::string to_string(QpAttrMask m) {
  std::uint32_t bits = to_bits(m);
  if (bits == 0) return "0";
  std::string out;
  for (std::size_t i = 0; i < kMaskNames.size(); ++i) {
    if (bits & (1U << i)) {
      if (!out.empty()) out += '|';
      out += kMaskNames[i];
      bits &= ~(1U << i);
    }
  }
  if (bits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", bits);
    if (!out.empty()) out += '|';
    out += buf;
  }
  return out;
}

std::string describe(const QpAttr& a) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "state=%.*s port=%u pkey_index=%u access=0x%x path_mtu=%u dest_qpn=0x%06x "
                "rq_psn=%u sq_psn=%u dlid=%u max_dest_rd_atomic=%u min_rnr_timer=%u timeout=%u",
                static_cast<int>(to_string(a.qp_state).size()), to_string(a.qp_state).data(),
                a.port_num, a.pkey_index, a.qp_access_flags, mtu_bytes(a.path_mtu),
                a.dest_qp_num, a.rq_psn, a.sq_psn, a.ah_attr.dlid, a.max_dest_rd_atomic,
                a.min_rnr_timer, a.timeout);
  return buf;
}

}  // namespace xrcrcv

// Typed QP attributes and attribute mask, and their translation to and
// from the uverbs wire structs (MODIFY_QP and QUERY_QP, whose structs the
// XRCD methods MODIFY_RCV_QP and QUERY_RCV_QP carry as attributes).
#pragma once

#include <xrcrcv/uapi.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xrcrcv {

// enum ib_qp_type (kernel): the only type this library creates.
inline constexpr std::uint8_t kQptXrcTgt = 10;

enum class QpState : std::uint8_t {
  Reset = 0, Init = 1, Rtr = 2, Rts = 3, Sqd = 4, Sqe = 5, Err = 6,
};

enum class Mtu : std::uint8_t {
  Mtu256 = 1, Mtu512 = 2, Mtu1024 = 3, Mtu2048 = 4, Mtu4096 = 5,
};

// enum ib_qp_attr_mask (kernel); the bits user space may send.
enum class QpAttrMask : std::uint32_t {
  None = 0,
  State = 1U << 0,
  CurState = 1U << 1,
  EnSqdAsyncNotify = 1U << 2,
  AccessFlags = 1U << 3,
  PkeyIndex = 1U << 4,
  Port = 1U << 5,
  Qkey = 1U << 6,
  Av = 1U << 7,
  PathMtu = 1U << 8,
  Timeout = 1U << 9,
  RetryCnt = 1U << 10,
  RnrRetry = 1U << 11,
  RqPsn = 1U << 12,
  MaxQpRdAtomic = 1U << 13,
  AltPath = 1U << 14,
  MinRnrTimer = 1U << 15,
  SqPsn = 1U << 16,
  MaxDestRdAtomic = 1U << 17,
  PathMigState = 1U << 18,
  Cap = 1U << 19,
  DestQpn = 1U << 20,
  AllStandard = (1U << 21) - 1,
};

constexpr QpAttrMask operator|(QpAttrMask a, QpAttrMask b) {
  return static_cast<QpAttrMask>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}
constexpr QpAttrMask operator&(QpAttrMask a, QpAttrMask b) {
  return static_cast<QpAttrMask>(static_cast<std::uint32_t>(a) & static_cast<std::uint32_t>(b));
}
constexpr QpAttrMask operator~(QpAttrMask a) {
  return static_cast<QpAttrMask>(~static_cast<std::uint32_t>(a));
}
constexpr QpAttrMask& operator|=(QpAttrMask& a, QpAttrMask b) { return a = a | b; }
constexpr std::uint32_t to_bits(QpAttrMask m) { return static_cast<std::uint32_t>(m); }
constexpr QpAttrMask mask_from_bits(std::uint32_t b) { return static_cast<QpAttrMask>(b); }
constexpr bool has(QpAttrMask m, QpAttrMask bit) { return (m & bit) != QpAttrMask::None; }

// IBV_ACCESS_* subset meaningful for a receive QP.
inline constexpr std::uint32_t kAccessLocalWrite = 1U << 0;
inline constexpr std::uint32_t kAccessRemoteWrite = 1U << 1;
inline constexpr std::uint32_t kAccessRemoteRead = 1U << 2;
inline constexpr std::uint32_t kAccessRemoteAtomic = 1U << 3;

// struct ib_uverbs_qp_dest, typed.
struct AddressVector {
  std::array<std::uint8_t, 16> dgid{};
  std::uint32_t flow_label = 0;
  std::uint16_t dlid = 0;
  std::uint8_t sgid_index = 0;
  std::uint8_t hop_limit = 0;
  std::uint8_t traffic_class = 0;
  std::uint8_t sl = 0;
  std::uint8_t src_path_bits = 0;
  std::uint8_t static_rate = 0;
  bool is_global = false;
  std::uint8_t port_num = 0;
  friend bool operator==(const AddressVector&, const AddressVector&) = default;
};

// Capabilities as QUERY reports them (a receive QP has none to set).
struct QpCap {
  std::uint32_t max_send_wr = 0;
  std::uint32_t max_recv_wr = 0;
  std::uint32_t max_send_sge = 0;
  std::uint32_t max_recv_sge = 0;
  std::uint32_t max_inline_data = 0;
  friend bool operator==(const QpCap&, const QpCap&) = default;
};

struct QpAttr {
  QpState qp_state = QpState::Reset;
  QpState cur_qp_state = QpState::Reset;
  Mtu path_mtu = Mtu::Mtu1024;
  std::uint8_t path_mig_state = 0;
  bool en_sqd_async_notify = false;
  bool sq_draining = false;  // query only
  bool sq_sig_all = false;   // query only
  std::uint32_t qkey = 0;
  std::uint32_t rq_psn = 0;
  std::uint32_t sq_psn = 0;
  std::uint32_t dest_qp_num = 0;
  std::uint32_t qp_access_flags = 0;
  std::uint16_t pkey_index = 0;
  std::uint16_t alt_pkey_index = 0;
  std::uint8_t max_rd_atomic = 0;
  std::uint8_t max_dest_rd_atomic = 0;
  std::uint8_t min_rnr_timer = 0;
  std::uint8_t port_num = 0;
  std::uint8_t timeout = 0;
  std::uint8_t retry_cnt = 0;
  std::uint8_t rnr_retry = 0;
  std::uint8_t alt_port_num = 0;
  std::uint8_t alt_timeout = 0;
  AddressVector ah_attr;
  AddressVector alt_ah_attr;
  QpCap cap;  // query only
  friend bool operator==(const QpAttr&, const QpAttr&) = default;
};

// An attribute set plus the mask saying which of its fields apply.
struct QpModify {
  QpAttr attr;
  QpAttrMask mask = QpAttrMask::None;
};

// Parameters of the standard XRC TGT transitions.
struct InitParams {
  std::uint8_t port = 1;
  std::uint16_t pkey_index = 0;
  std::uint32_t access = kAccessRemoteWrite | kAccessRemoteRead | kAccessRemoteAtomic;
};
struct RtrParams {
  std::uint8_t port = 1;     // AV port, must match the QP's port
  std::uint16_t dlid = 1;
  std::uint32_t dest_qp_num = 0;
  std::uint32_t rq_psn = 0;
  Mtu path_mtu = Mtu::Mtu1024;
  std::uint8_t max_dest_rd_atomic = 1;
  std::uint8_t min_rnr_timer = 12;
};
struct RtsParams {
  std::uint8_t timeout = 14;
  std::uint32_t sq_psn = 0;
};

// RESET->INIT: STATE|PKEY_INDEX|PORT|ACCESS_FLAGS
[[nodiscard]] QpModify xrc_tgt_to_init(const InitParams& p = {});
// INIT->RTR: STATE|AV|PATH_MTU|DEST_QPN|RQ_PSN|MAX_DEST_RD_ATOMIC|MIN_RNR_TIMER
[[nodiscard]] QpModify xrc_tgt_to_rtr(const RtrParams& p = {});
// RTR->RTS: STATE|TIMEOUT|SQ_PSN
[[nodiscard]] QpModify xrc_tgt_to_rts(const RtsParams& p = {});
// Any state -> RESET or ERR: STATE only.
[[nodiscard]] QpModify to_state_only(QpState s);

// Wire translation.  MODIFY_RCV_QP's attribute is MODIFY_QP's struct, with
// qp_handle 0.
void fill_dest(ib_uverbs_qp_dest& d, const AddressVector& av);
[[nodiscard]] AddressVector from_dest(const ib_uverbs_qp_dest& d);
[[nodiscard]] ib_uverbs_modify_qp encode_modify_qp(std::uint32_t qp_handle, const QpAttr& a,
                                                   QpAttrMask mask);
[[nodiscard]] QpAttr decode_query_resp(const ib_uverbs_query_qp_resp& r);

// Names.
[[nodiscard]] std::string_view to_string(QpState s);
[[nodiscard]] std::optional<QpState> parse_qp_state(std::string_view s);  // "init", "RTR", "2"
[[nodiscard]] std::optional<Mtu> parse_mtu(std::string_view s);           // "1024" or "3"
[[nodiscard]] unsigned mtu_bytes(Mtu m);
// "STATE|PKEY_INDEX|PORT|ACCESS_FLAGS"; unknown bits as "0x...", "0" if empty.
[[nodiscard]] std::string to_string(QpAttrMask m);
// One-line summary of the attributes a query returned.
[[nodiscard]] std::string describe(const QpAttr& a);

}  // namespace xrcrcv

// SPDX-License-Identifier: Apache-2.0
// tpu_link_tx: link frame transmitter: header, payload from a buffer RAM or registers, CRC-32 on the fly.
`default_nettype none

// Two stages feed a 4-byte output FIFO: stage A picks the next byte of the frame (and
// issues the RAM read for payload bytes), stage B has the RAM data, forms the byte, updates
// the CRC and pushes it.  Stage A runs only when the FIFO is sure to have room, so the
// output streams one byte per cycle while m_byte_ready_i stays high.
module tpu_link_tx #(
  parameter int unsigned BufBytes = 32,   // bytes per word of the payload buffer
  parameter int unsigned BufWords = 129,  // words of the payload buffer
  parameter int unsigned MbWords  = 64    // 32-bit words of the mailbox TX buffer
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // frame to send: held stable from start_i until done_o
  input  logic        start_i,
  input  logic [7:0]  type_i,
  input  logic [7:0]  flags_i,
  input  logic [7:0]  seq_i,
  input  logic [15:0] len_i,
  input  logic [1:0]  src_i,     // SrcBuf, SrcMb or SrcSmall
  input  logic [$clog2(BufWords*BufBytes)-1:0] pos_i,  // SrcBuf: first byte in the buffer
  input  logic [63:0] small_i,   // SrcSmall: payload bytes 0..7 (byte j at [8j +: 8])
  output logic        busy_o,    // from start_i until the last byte is in the FIFO
  output logic        done_o,    // the last byte of the frame enters the FIFO
  // payload buffer read port
  output logic        buf_re_o,
  output logic [$clog2(BufWords)-1:0] buf_raddr_o,
  input  logic [BufBytes*8-1:0] buf_rdata_i,
  // mailbox TX buffer read port
  output logic        mb_re_o,
  output logic [$clog2(MbWords)-1:0] mb_raddr_o,
  input  logic [31:0] mb_rdata_i,
  // byte stream out
  output logic        m_byte_valid_o,
  input  logic        m_byte_ready_i,
  output logic [7:0]  m_byte_data_o
);

  localparam logic [1:0] SrcBuf = 2'd0, SrcMb = 2'd1, SrcSmall = 2'd2;
  localparam int unsigned PosW = $clog2(BufWords * BufBytes);
  localparam int unsigned LaneW = $clog2(BufBytes);
  localparam int unsigned LW = LaneW > 3 ? LaneW : 3;   // lane bits kept for stage B

  typedef enum logic [1:0] {KHdr, KPay, KCrc} kind_e;

  // Stage A
  logic            act_q, act_d;
  kind_e           a_kind_q, a_kind_d;
  logic [2:0]      a_idx_q, a_idx_d;     // header byte 0..5, CRC byte 0..3
  logic [15:0]     a_left_q, a_left_d;   // payload bytes still to issue
  logic [PosW-1:0] a_pos_q, a_pos_d;     // position of the next payload byte
  // Stage B
  logic            b_valid_q, b_valid_d, b_last_q, b_last_d;
  kind_e           b_kind_q, b_kind_d;
  logic [LW-1:0]   b_lane_q, b_lane_d;   // the byte's lane in its buffer word
  logic [2:0]      b_idx_q, b_idx_d;
  logic [31:0]     crc_q, crc_d;
  // Output FIFO
  logic [7:0]      fifo_q [4];
  logic [1:0]      rd_q, wr_q;
  logic [2:0]      cnt_q, cnt_d;

  wire room = ({1'b0, cnt_q} + {3'd0, b_valid_q}) <= 4'd3;
  wire issue = act_q && room;

  assign busy_o = act_q || b_valid_q;
  assign done_o = b_valid_q && b_last_q;

  // Stage A: the byte sequence of a frame and the RAM reads of its payload.
  always_comb begin
    act_d = act_q;
    a_kind_d = a_kind_q;
    a_idx_d = a_idx_q;
    a_left_d = a_left_q;
    a_pos_d = a_pos_q;
    b_valid_d = 1'b0;
    b_last_d = 1'b0;
    b_kind_d = a_kind_q;
    b_lane_d = a_pos_q[LW-1:0];
    b_idx_d = a_idx_q;
    buf_re_o = 1'b0;
    mb_re_o = 1'b0;
    if (start_i && !busy_o) begin
      act_d = 1'b1;
      a_kind_d = KHdr;
      a_idx_d = 3'd0;
      a_left_d = len_i;
      a_pos_d = src_i == SrcBuf ? pos_i : '0;
    end else if (issue) begin
      b_valid_d = 1'b1;
      unique case (a_kind_q)
        KHdr: begin
          a_idx_d = a_idx_q + 3'd1;
          if (a_idx_q == 3'd5) begin
            a_idx_d = 3'd0;
            a_kind_d = a_left_q != 16'd0 ? KPay : KCrc;
          end
        end
        KPay: begin
          buf_re_o = src_i == SrcBuf;
          mb_re_o = src_i == SrcMb;
          a_pos_d = a_pos_q + PosW'(1);
          a_left_d = a_left_q - 16'd1;
          if (a_left_q == 16'd1) a_kind_d = KCrc;
        end
        default: begin  // KCrc
          a_idx_d = a_idx_q + 3'd1;
          if (a_idx_q == 3'd3) begin
            act_d = 1'b0;
            b_last_d = 1'b1;
          end
        end
      endcase
    end
  end

  assign buf_raddr_o = $clog2(BufWords)'(a_pos_q >> LaneW);
  assign mb_raddr_o = $clog2(MbWords)'(a_pos_q >> 2);

  // Stage B: the byte value and the CRC.
  logic [7:0]  b_byte;
  logic [31:0] crc_next;
  tpu_crc32 u_crc (.crc_i(crc_q), .data_i(b_byte), .crc_o(crc_next));

  always_comb begin
    b_byte = 8'h00;
    unique case (b_kind_q)
      KHdr: begin
        unique case (b_idx_q)
          3'd0: b_byte = tpu_isa_pkg::LinkSync;
          3'd1: b_byte = type_i;
          3'd2: b_byte = flags_i;
          3'd3: b_byte = seq_i;
          3'd4: b_byte = len_i[7:0];
          default: b_byte = len_i[15:8];
        endcase
      end
      KPay: begin
        unique case (src_i)
          SrcBuf: b_byte = buf_rdata_i[8*b_lane_q[LaneW-1:0] +: 8];
          SrcMb: b_byte = mb_rdata_i[8*b_lane_q[1:0] +: 8];
          SrcSmall: b_byte = small_i[8*b_lane_q[2:0] +: 8];
          default: b_byte = 8'h00;
        endcase
      end
      default: b_byte = ~crc_q[8*b_idx_q[1:0] +: 8];
    endcase
    crc_d = crc_q;
    if (start_i && !busy_o) crc_d = 32'hFFFF_FFFF;
    else if (b_valid_q && b_kind_q != KCrc && !(b_kind_q == KHdr && b_idx_q == 3'd0))
      crc_d = crc_next;
  end

  // Output FIFO
  wire push = b_valid_q;
  wire pop = m_byte_valid_o && m_byte_ready_i;
  assign m_byte_valid_o = cnt_q != 3'd0;
  assign m_byte_data_o = fifo_q[rd_q];
  always_comb cnt_d = cnt_q + {2'd0, push} - {2'd0, pop};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q <= 1'b0;
      a_kind_q <= KHdr;
      a_idx_q <= '0;
      a_left_q <= '0;
      a_pos_q <= '0;
      b_valid_q <= 1'b0;
      b_last_q <= 1'b0;
      b_kind_q <= KHdr;
      b_lane_q <= '0;
      b_idx_q <= '0;
      crc_q <= '1;
      rd_q <= '0;
      wr_q <= '0;
      cnt_q <= '0;
    end else begin
      act_q <= act_d;
      a_kind_q <= a_kind_d;
      a_idx_q <= a_idx_d;
      a_left_q <= a_left_d;
      a_pos_q <= a_pos_d;
      b_valid_q <= b_valid_d;
      b_last_q <= b_last_d;
      b_kind_q <= b_kind_d;
      b_lane_q <= b_lane_d;
      b_idx_q <= b_idx_d;
      crc_q <= crc_d;
      rd_q <= rd_q + {1'b0, pop};
      wr_q <= wr_q + {1'b0, push};
      cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push) fifo_q[wr_q] <= b_byte;
  end

  // Assertions
`ifndef SYNTHESIS
  initial assert (BufBytes >= 4 && BufBytes <= 32 && (1 << LaneW) == BufBytes)
    else $error("tpu_link_tx: BufBytes %0d must be 4, 8, 16 or 32", BufBytes);
  // Immediate assertions in a clocked block, not properties (docs/verification.md).
  always_ff @(posedge clk_i) begin : checks
    if (rst_ni) begin
      assert (!(push && !pop && cnt_q == 3'd4))
        else $error("tpu_link_tx: output FIFO overflow");
      assert (!(start_i && busy_o))
        else $error("tpu_link_tx: start while busy");
      assert (!(buf_re_o && 32'(buf_raddr_o) >= BufWords))
        else $error("tpu_link_tx: payload read beyond the buffer");
    end
  end
`endif

endmodule

`default_nettype wire

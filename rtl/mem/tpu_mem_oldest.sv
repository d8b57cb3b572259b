// SPDX-License-Identifier: Apache-2.0
// tpu_mem_oldest: picks the oldest candidate of a queue from its age matrix.
`default_nettype none

module tpu_mem_oldest #(
  parameter int N = 32,  // queue entries
  localparam int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  wire  [N-1:0]   cand_i,   // candidates
  input  wire  [N*N-1:0] older_i,  // bits [i*N +: N]: the entries older than entry i
  output logic           valid_o,
  output logic [IdxW-1:0] idx_o
);
  // Ages form a total order, so exactly one candidate has no older candidate.
  always_comb begin
    valid_o = 1'b0;
    idx_o = '0;
    for (int i = 0; i < N; i++) begin
      if (cand_i[i] && ((older_i[i*N +: N] & cand_i) == '0)) begin
        valid_o = 1'b1;
        idx_o = IdxW'(i);
      end
    end
  end
endmodule

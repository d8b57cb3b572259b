// SPDX-License-Identifier: Apache-2.0
// tpu_crc32: one byte of CRC-32 (zlib: polynomial 0x04C11DB7 reflected = 0xEDB88320), combinational.
`default_nettype none

// crc_i/crc_o are the raw shift register: start from 32'hFFFF_FFFF; the zlib CRC of the bytes
// fed so far is ~crc_o.  Feeding a message followed by its CRC (little endian) leaves the
// register at the residue 32'hDEBB_20E3, which is how the receiver checks a frame.
module tpu_crc32 (
  input  logic [31:0] crc_i,
  input  logic [7:0]  data_i,
  output logic [31:0] crc_o
);

  localparam logic [31:0] Poly = 32'hEDB8_8320;

  always_comb begin
    crc_o = crc_i ^ {24'd0, data_i};
    for (int b = 0; b < 8; b++) begin
      crc_o = (crc_o >> 1) ^ (crc_o[0] ? Poly : 32'd0);
    end
  end

endmodule

`default_nettype wire

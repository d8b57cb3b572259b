# SPDX-License-Identifier: Apache-2.0
# libpicotpu: static and shared library, pkg-config file and the `picotpu` CLI,
# all under build/host/.  Included from tests/host/test.mk.
HOST_CC ?= $(CC)
HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -Ihost/include -Ihost/src
HOST_LDLIBS := -lz -lm -pthread -ldl
HOST_BUILD := build/host
HOST_SRCS := host/src/ptpu_model.c host/src/ptpu_kernels.c host/src/ptpu_compile.c \
             host/src/ptpu_runtime.c host/src/ptpu_backend_ref.c host/src/ptpu_backend_sim.c \
             host/src/ptpu_backend_usb.c host/src/ptpu_backend_link.c host/src/ptpu_link.c \
             host/src/ptpu_arith.c host/src/ptpu_vpu.c \
             host/src/ptpu_dmafn.c host/src/ref/ptpu_ref.c
HOST_HDRS := $(wildcard host/include/*.h host/src/*.h host/src/ref/*.h)
HOST_OBJS := $(patsubst host/src/%.c,$(HOST_BUILD)/obj/%.o,$(HOST_SRCS))
HOST_LIB := $(HOST_BUILD)/libpicotpu.a
HOST_SO := $(HOST_BUILD)/libpicotpu.so
HOST_PC := $(HOST_BUILD)/picotpu.pc
HOST_CLI := $(HOST_BUILD)/picotpu

# the sim backend loads build/sim/<config>/libpicotpu_sim.so from this tree by default
# the usb backend: libftdi1's and libusb-1.0's headers; the library itself is loaded at run
# time (dlopen), so that libpicotpu.a links without it (docs/runtime.md)
HOST_FTDI_CFLAGS := $(shell pkg-config --cflags libftdi1 2>/dev/null || echo -I/usr/include/libftdi1 -I/usr/include/libusb-1.0)
$(HOST_BUILD)/obj/ptpu_backend_usb.o: HOST_XFLAGS := $(HOST_FTDI_CFLAGS)
$(HOST_BUILD)/san/obj/ptpu_backend_usb.o: HOST_SAN_FLAGS += $(HOST_FTDI_CFLAGS)
$(HOST_BUILD)/obj/ptpu_backend_sim.o: HOST_XFLAGS := -DPTPU_SIM_DIR='"$(abspath build/sim)"'
$(HOST_BUILD)/obj/%.o: host/src/%.c $(HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_XFLAGS) -c $< -o $@

$(HOST_LIB): $(HOST_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(HOST_SO): $(HOST_OBJS)
	$(HOST_CC) -shared -Wl,-soname,libpicotpu.so.1 -o $@ $^ $(HOST_LDLIBS)

$(HOST_PC): host/host.mk
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=/usr/local' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: picotpu' \
	  'Description: host runtime of the picotpu TPU' 'Version: 0.1.0' \
	  'Libs: -L$${libdir} -lpicotpu' 'Libs.private: -lz -lm -pthread -ldl' \
	  'Cflags: -I$${includedir}' > $@

$(HOST_CLI): host/cli/picotpu.c $(HOST_LIB)
	$(HOST_CC) $(HOST_CFLAGS) $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)

# the example of docs/runtime.md, built against the installed-style interface only
HOST_EXAMPLE := $(HOST_BUILD)/classify
$(HOST_EXAMPLE): host/examples/classify.c $(HOST_LIB) host/include/picotpu.h
	$(HOST_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Ihost/include $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)

.PHONY: host
host: $(HOST_LIB) $(HOST_SO) $(HOST_PC) $(HOST_CLI) $(HOST_EXAMPLE)

# `make host-install PREFIX=/usr/local` (DESTDIR honoured): headers, libraries,
# pkg-config file and the CLI.
PREFIX ?= /usr/local
.PHONY: host-install
host-install: host
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 host/include/picotpu.h host/include/picotpu_model.h host/include/picotpu_isa.h \
	  $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(HOST_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(HOST_SO) $(DESTDIR)$(PREFIX)/lib/libpicotpu.so.1
	ln -sf libpicotpu.so.1 $(DESTDIR)$(PREFIX)/lib/libpicotpu.so
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(HOST_PC) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/picotpu.pc
	install -m 755 $(HOST_CLI) $(DESTDIR)$(PREFIX)/bin/

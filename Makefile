# hipport: plain Makefile. `make` builds build/hipport and build/libhipport.a; `make test` runs
# every test; `make SAN=1 test` runs them under ASan and UBSan; `make TSAN=1` builds build-tsan/
# under ThreadSanitizer (the worker pool and the shared header cache); `make fuzz` builds the
# fuzzers.
CC ?= cc
CFLAGS ?= -O2 -g
WARN := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wstrict-prototypes \
        -Wmissing-prototypes -Wvla
B := build$(if $(SAN),-san)$(if $(TSAN),-tsan)$(if $(DEBUG),-debug)
BASE_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -Iinclude
# The library's folders, lowest first, and the folders each may use (docs/architecture.md):
# a folder is compiled with the include paths of those alone, so an include of a higher or an
# unrelated folder does not build (tests/layers.suite.sh shows it).
LAYERS := base lex report translate check targets doctor api
USES_base := base
USES_lex := base lex
USES_report := base report
USES_translate := base lex report translate
USES_check := base lex report check
USES_targets := base targets
USES_doctor := base report targets doctor
USES_api := $(LAYERS)
ALL_INC := $(foreach l,$(LAYERS),-Isrc/$(l))
# tests, fuzzers and benchmarks look inside every layer
LAYER_INC = $(ALL_INC)
$(foreach l,$(LAYERS),$(eval $(B)/src/$(l)/%.o: LAYER_INC = $(foreach u,$(USES_$(l)),-Isrc/$(u))))
CPPFLAGS += $(BASE_CPPFLAGS) $(LAYER_INC) -I$(B)/gen
LDLIBS += -lpthread -ldl
ifdef SAN
CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ifdef TSAN
CFLAGS += -O1 -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
endif
# HP_ASSERT (src/base/hp_assert.h) is checked in sanitizer and debug builds.
ifneq ($(SAN)$(DEBUG),)
BASE_CPPFLAGS += -DHP_DEBUG
endif
ifdef DEBUG
CFLAGS += -O0
endif
ifdef WERROR
WARN += -Werror
endif

LIB_SRC := $(sort $(wildcard $(foreach l,$(LAYERS),src/$(l)/*.c)))
CLI_SRC := $(sort $(wildcard cli/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
LIB_OBJ := $(patsubst %.c,$(B)/%.o,$(LIB_SRC))
CLI_OBJ := $(patsubst %.c,$(B)/%.o,$(CLI_SRC))
UNIT_OBJ := $(patsubst %.c,$(B)/%.o,$(UNIT_SRC))
MAP_DATA := $(sort $(wildcard data/cuda2hip/*.tsv))
RULE_DOCS := $(sort $(wildcard docs/rules/*.md))
HELP_DOCS := $(sort $(wildcard docs/help/*.txt))
# Other tables: data/tables/NAME.tsv, whose first line is "#! cols=N", becomes
# $(B)/gen/NAME_tab.h with the array NAME_rows[][N] and NAME_rows_COUNT.
TABLES := $(sort $(wildcard data/tables/*.tsv))
GEN := $(B)/gen/map_tab.h $(B)/gen/rule_docs.h $(B)/gen/help_docs.h $(B)/gen/unit_list.h \
       $(B)/gen/rule_ids.h \
       $(patsubst data/tables/%.tsv,$(B)/gen/%_tab.h,$(TABLES))

all: $(B)/hipport $(B)/libhipport.a

# The CLI sees only the public API.
$(CLI_OBJ): CPPFLAGS := $(BASE_CPPFLAGS) -Icli
$(B)/tests/spec_runner.o $(B)/tests/spec_check.o: CPPFLAGS := $(BASE_CPPFLAGS) -Itests

$(B)/hipport: $(CLI_OBJ) $(B)/libhipport.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libhipport.a $(LDLIBS)

$(B)/libhipport.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/%.o: %.c | $(GEN)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

# Generators run on the build machine, without sanitizers.
$(B)/gentab: tools/gentab.c src/base/hash.h src/translate/map_defs.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -O1 -o $@ tools/gentab.c

$(B)/gen/map_tab.h: $(B)/gentab $(MAP_DATA)
	@mkdir -p $(@D)
	$(B)/gentab map $(MAP_DATA) > $@.tmp && mv $@.tmp $@

$(B)/gen/rule_docs.h: $(B)/gentab $(RULE_DOCS)
	@mkdir -p $(@D)
	$(B)/gentab embed rule_docs $(RULE_DOCS) > $@.tmp && mv $@.tmp $@

# RID_<id> for each rule of rules.tsv; the tables that name rules are checked against it.
RULE_REFS := data/tables/rule_names.tsv:2
$(B)/gen/rule_ids.h: $(B)/gentab data/tables/rules.tsv $(foreach r,$(RULE_REFS),$(firstword $(subst :, ,$(r))))
	@mkdir -p $(@D)
	$(B)/gentab ids data/tables/rules.tsv $(RULE_REFS) > $@.tmp && mv $@.tmp $@

$(B)/gen/help_docs.h: $(B)/gentab $(HELP_DOCS)
	@mkdir -p $(@D)
	$(B)/gentab embed help_docs $(HELP_DOCS) > $@.tmp && mv $@.tmp $@

# Generated headers are kept (make would otherwise delete them as intermediate files).
.SECONDARY: $(GEN)
$(B)/gen/%_tab.h: data/tables/%.tsv $(B)/gentab
	@mkdir -p $(@D)
	$(B)/gentab rows $*_rows $$(sed -n '1s/^#! cols=//p' $<) $< > $@.tmp && mv $@.tmp $@

# Unit tests register themselves with TEST(name); the list is collected here.
$(B)/gen/unit_list.h: $(UNIT_SRC)
	@mkdir -p $(@D)
	sed -n 's/^TEST(\([A-Za-z0-9_]*\)).*/T(\1)/p' $(UNIT_SRC) > $@.tmp && mv $@.tmp $@

# The option parser of the CLI (tests/unit/test_opt.c) is tested with the library.
$(B)/unit: $(UNIT_OBJ) $(B)/cli/opt.o $(B)/libhipport.a
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(B)/cli/opt.o $(B)/libhipport.a $(LDLIBS)

$(B)/spec: $(B)/tests/spec_runner.o $(B)/tests/spec_check.o $(B)/libhipport.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Greps translated files with the name tables (tests/pytorch.suite.sh).
$(B)/residue: $(B)/tests/residue.o $(B)/libhipport.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

test: $(B)/hipport $(B)/unit $(B)/spec $(B)/residue
	@sh tests/run.sh $(B)

# Translates and compiles tests/compile/ with hipcc (skips with a message when it is missing).
compile-test: $(B)/hipport
	@sh tests/compile.sh $(B)/hipport

FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -DHP_DEBUG -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRC))
fuzz: $(FUZZ_BIN)
build-fuzz/%: tests/fuzz/%.c $(LIB_SRC) $(GEN)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(BASE_CPPFLAGS) $(ALL_INC) -I$(B)/gen -std=c11 $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) \
	    -lpthread -ldl

# The include flags of a layer (tests/layers.suite.sh): make -s layer-flags LAYER=base
layer-flags:
	@echo $(BASE_CPPFLAGS) $(foreach u,$(USES_$(LAYER)),-Isrc/$(u)) -I$(B)/gen

bench: $(B)/hipport
	@sh bench/run.sh $(B)/hipport
	@sh bench/scaling.sh $(B)/hipport

PREFIX ?= /usr/local
DESTDIR ?=
install: $(B)/hipport $(B)/libhipport.a
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/hipport $(DESTDIR)$(PREFIX)/bin/hipport
	install -m 644 $(B)/libhipport.a $(DESTDIR)$(PREFIX)/lib/libhipport.a
	install -m 644 include/hipport.h $(DESTDIR)$(PREFIX)/include/hipport.h
	install -m 644 docs/hipport.1 $(DESTDIR)$(PREFIX)/share/man/man1/hipport.1

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) src/*/*.h cli/*.h include/hipport.h tools/*.c

clean:
	rm -rf build build-san build-fuzz

.PHONY: all test compile-test fuzz bench install format clean layer-flags
-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(B)/tests/spec_runner.d \
    $(B)/tests/spec_check.d $(B)/tests/residue.d

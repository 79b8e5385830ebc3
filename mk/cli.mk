# The lz4 command, which the interoperability tests of cmd/lz4warp and
# internal/lz4frame run (spec/cli.md, CLI-15). lz4-tool makes it available
# without root when the system has none: Debian's lz4 package (its lz4 is
# linked statically with liblz4) is downloaded with apt-get, through a
# private package list under the cache folder when the system's lists are
# missing, and unpacked with dpkg-deb into .cache/lz4.
LZ4_CACHE ?= $(CURDIR)/.cache/lz4
LZ4_SYSTEM := $(shell command -v lz4 2>/dev/null)
LZ4 ?= $(or $(LZ4_SYSTEM),$(LZ4_CACHE)/usr/bin/lz4)
export LZ4 LZ4_CACHE

.PHONY: lz4-tool
lz4-tool:
ifeq ($(LZ4_SYSTEM),)
	@set -eu; d="$(LZ4_CACHE)"; \
	if [ -x "$$d/usr/bin/lz4" ]; then exit 0; fi; \
	mkdir -p "$$d/debs" "$$d/apt/lists/partial" "$$d/apt/cache/archives/partial"; cd "$$d/debs"; rm -f lz4_*.deb; \
	if ! apt-get -qq download lz4 2>/dev/null; then \
		codename=$$(. /etc/os-release 2>/dev/null && echo "$${VERSION_CODENAME:-}"); codename=$${codename:-bookworm}; \
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $$codename main" >"$$d/apt/sources.list"; \
		opts="-o Dir::Etc::SourceList=$$d/apt/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$$d/apt/lists \
			-o Dir::Cache=$$d/apt/cache -o Debug::NoLocking=1 -o APT::Sandbox::User=$$(id -un)"; \
		echo "lz4-tool: updating a private package list ($$codename)" >&2; \
		apt-get $$opts -qq update; apt-get $$opts -qq download lz4; \
	fi; \
	dpkg-deb -x lz4_*.deb "$$d"; rm -f lz4_*.deb; \
	"$$d/usr/bin/lz4" --version >&2; echo "lz4-tool: $$d/usr/bin/lz4" >&2
endif
	@# liblz4.so.1, which the ratio tests load (internal/liblz4), unpacked the same way where missing.
	@if ! ldconfig -p 2>/dev/null | grep -q 'liblz4\.so\.1 ' && ! ls "$(LZ4_CACHE)"/usr/lib/*/liblz4.so.1 >/dev/null 2>&1; then \
		mkdir -p "$(LZ4_CACHE)/debs" && cd "$(LZ4_CACHE)/debs" && rm -f liblz4-1_*.deb && apt-get -qq download liblz4-1 \
		&& dpkg-deb -x liblz4-1_*.deb "$(LZ4_CACHE)" && rm -f liblz4-1_*.deb \
		|| echo "lz4-tool: could not fetch liblz4-1 (liblz4.so.1); the ratio tests against liblz4 skip, or fail under CI=true" >&2; fi

# Fuzz the frame reader (FUZZTIME as for make fuzz).
.PHONY: fuzz-lz4frame
fuzz-lz4frame:
	GO=$(GO) bash scripts/fuzz.sh ./internal/lz4frame FuzzReader $(or $(FUZZTIME),30s)

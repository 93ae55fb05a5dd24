# The two commands of README.md. Both install what the machine lacks first.
#   make run    build in release and open the simulator
#   make test   run the fast test suite (a few minutes from a fresh clone)
#   make test-all   the whole suite: the fast one and the long tests (REFRESHLAB_LONG_TESTS=1), as CI runs it
# And for robustness:
#   make fuzz   run each fuzz target for FUZZ_SECONDS (60 by default); see Fuzz/README.md
#   make soak   an hour of simulated random use, its invariants on every frame, its memory flat
.PHONY: run test test-all setup fuzz soak

FUZZ_SECONDS ?= 60
SOAK_MINUTES ?= 60

setup:
	@scripts/setup.sh

run: setup
	swift build -c release --product refreshlab
	.build/release/refreshlab

test: setup
	swift test

test-all: setup
	REFRESHLAB_LONG_TESTS=1 swift test

fuzz: setup
	Fuzz/run.sh $(FUZZ_SECONDS)

soak: setup
	REFRESHLAB_LONG_TESTS=1 REFRESHLAB_SOAK_MINUTES=$(SOAK_MINUTES) swift test --filter SoakTests

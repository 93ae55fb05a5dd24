# The two commands of README.md. Both install what the machine lacks first.
#   make run    build in release and open the simulator
#   make test   run the test suite
# And for robustness:
#   make fuzz   run each fuzz target for FUZZ_SECONDS (60 by default); see Fuzz/README.md
#   make soak   an hour of simulated random use, its invariants on every frame, its memory flat
.PHONY: run test setup fuzz soak

FUZZ_SECONDS ?= 60
SOAK_MINUTES ?= 60

setup:
	@scripts/setup.sh

run: setup
	swift build -c release --product refreshlab
	.build/release/refreshlab

test: setup
	swift test

fuzz: setup
	Fuzz/run.sh $(FUZZ_SECONDS)

soak: setup
	REFRESHLAB_SOAK_MINUTES=$(SOAK_MINUTES) swift test --filter SoakTests

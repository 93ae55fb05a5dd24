# The two commands of README.md. Both install what the machine lacks first.
#   make run    build in release and open the simulator
#   make test   run the test suite
.PHONY: run test setup

setup:
	@scripts/setup.sh

run: setup
	swift build -c release --product refreshlab
	.build/release/refreshlab

test: setup
	swift test

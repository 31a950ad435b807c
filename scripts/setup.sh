#!/usr/bin/env bash
# Installs what modforge needs, only what is missing (a second run installs nothing):
#   Debian packages: a JDK and Maven (Mill, SpinalHDL), Verilator (SpinalSim), Icarus (cocotb),
#                    OpenSTA (static timing), python3-venv, NTL, FLINT and GMP (the software
#                    baseline, make sw-baseline);
#   .venv:           the pinned Python packages of requirements.txt, pyosys (Yosys) and python-flint
#                    (FLINT 3 for make sw-baseline) among them, then
#                    the project itself in editable mode (pyproject.toml: a .pth puts verif/,
#                    verif/bench/ and flow/ on sys.path); both again when either file changes;
#   Mill:            fetched by ./mill from Maven Central on first use;
#   layout tools:    OpenROAD, Magic, Netgen from ../shared/tools/install.sh where it is beside the
#                    repository and none is found (flow/eda.py); otherwise a note on how to get them.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
have() { command -v "$1" >/dev/null 2>&1; }
have java      || need_apt+=(default-jdk-headless)
have mvn       || need_apt+=(maven)
have verilator || need_apt+=(verilator)
have iverilog  || need_apt+=(iverilog)
have sta       || need_apt+=(opensta)
have make      || need_apt+=(make)
have klayout   || need_apt+=(klayout)   # the Classic flow's KLayout DRC and XOR (Debian 0.28.5)
have g++       || need_apt+=(g++)
python3 -c "import venv, ensurepip" 2>/dev/null || need_apt+=(python3-venv)
# the software baseline (make sw-baseline): NTL, FLINT and GMP headers and libraries
[ -f /usr/include/NTL/ZZ_pX.h ] || need_apt+=(libntl-dev)
[ -f /usr/include/flint/flint.h ] || need_apt+=(libflint-dev)
[ -n "$(find /usr/include -maxdepth 2 -name gmp.h -print -quit 2>/dev/null)" ] || need_apt+=(libgmp-dev)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    have sudo || { echo "setup: need root to run: apt-get install -y ${need_apt[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# Python venv, keyed on the content of requirements.txt and pyproject.toml.
want="$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1)"
if [ ! -x .venv/bin/python ] || [ "$(cat .venv/.setup.sha256 2>/dev/null)" != "$want" ]; then
  echo "setup: installing requirements.txt and the project (editable) into .venv"
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  .venv/bin/pip install -q --disable-pip-version-check --no-deps -e .
  rm -f .venv/.requirements.sha256
  echo "$want" > .venv/.setup.sha256
fi

# OpenROAD, Magic and Netgen (make harden's layout, flow/pnr.py): no registry serves OpenROAD. Found as
# flow/eda.py looks (OPENROAD_EXE/MAGIC_EXE/NETGEN_EXE, PATH, /opt/modforge-eda/bin); where none is and
# our machines' ../shared/tools is beside the repository, its install.sh puts them in /opt/modforge-eda.
if ! .venv/bin/python flow/eda.py --check >/dev/null 2>&1; then
  if [ -x ../shared/tools/install.sh ] && [ -z "${OPENROAD_EXE:-}" ]; then
    echo "setup: installing OpenROAD, Magic and Netgen from ../shared/tools into /opt/modforge-eda"
    # a failed install leaves make setup going: the layout is then skipped with the message below
    if [ "$(id -u)" -eq 0 ]; then ../shared/tools/install.sh >/dev/null || echo "setup: ../shared/tools/install.sh failed" >&2
    elif have sudo; then sudo ../shared/tools/install.sh >/dev/null || echo "setup: ../shared/tools/install.sh failed" >&2
    else echo "setup: need root to run ../shared/tools/install.sh (layout runs only where it is installed)" >&2; fi
  fi
  .venv/bin/python flow/eda.py --check || true   # says what is missing and how to get it; layout is skipped then
fi

# Mill: the launcher fetches it on first use; do it here so the first build's log is clean.
# Always -i: without it Mill starts a background server that outlives the command.
./mill -i --version >/dev/null 2>&1 || { echo "setup: ./mill failed to start; run ./mill -i --version to see why" >&2; exit 1; }

"""multipass_runs.keep_unchanged: a design generated again leaves its unchanged files as they were (so a Verilator
model of it is reused), replaces a changed one and adds a new one."""
import os

from multipass_runs import keep_unchanged


def test_keep_unchanged(tmp_path):
    out, new = tmp_path / "out", tmp_path / "new"
    (out / "d" / "rtl").mkdir(parents=True)
    (new / "d" / "rtl").mkdir(parents=True)
    same, changed = out / "d" / "rtl" / "d.v", out / "d" / "rtl" / "d.json"
    same.write_text("module d; endmodule\n")
    changed.write_text('{"n": 1}')
    os.utime(same, (1_000_000, 1_000_000))
    (new / "d" / "rtl" / "d.v").write_text("module d; endmodule\n")
    (new / "d" / "rtl" / "d.json").write_text('{"n": 2}')
    (new / "e" / "rtl").mkdir(parents=True)
    (new / "e" / "rtl" / "e.v").write_text("module e; endmodule\n")
    keep_unchanged(new, out)
    assert same.stat().st_mtime == 1_000_000
    assert changed.read_text() == '{"n": 2}'
    assert (out / "e" / "rtl" / "e.v").read_text() == "module e; endmodule\n"

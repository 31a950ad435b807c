"""flow/reports/multipass_cycles.py: a machine with some benches' records (the large sets, say) keeps the committed
report's other rows, marked carried over, their numbers as numbers; a row it has records for is its own."""
from reports import multipass_cycles as mc

HEADER = ("unit,design,test,runs,patterns,pause,cycles_min,cycles_max,model_cycles,ratio_min,ratio_max,fill_cycles,"
          "ratio_with_fill_min,ratio_with_fill_max,per_pass,recorded_utc,simulator\n")
ROWS = ("mover,mover_a,copy,1,random,0.0,1162,1162,1024,1.135,1.135,,,,,2026-11-28 20:56 UTC,Icarus\n"
        "engine,mpoly_b,engine_large,3,random,0.3,26107,26164,24576,1.062,1.065,1457,1.003,1.005,x,2026-11-29 08:52 UTC,"
        "Verilator 5.49\n")


def test_carried_over(tmp_path, monkeypatch):
    (tmp_path / "multipass_cycles.csv").write_text(HEADER + ROWS)
    monkeypatch.setattr(mc, "REPORTS", tmp_path)
    here = [{"unit": "engine", "design": "mpoly_b", "test": "engine_large"}]
    (r,) = mc.carried_over(here)
    assert (r["unit"], r["design"], r["test"], r["carried"]) == ("mover", "mover_a", "copy", True)
    assert r["cycles_min"] == 1162 and r["pause"] == 0.0 and r["fill_cycles"] == ""
    assert len(mc.carried_over([])) == 2


def test_nothing_committed(tmp_path, monkeypatch):
    monkeypatch.setattr(mc, "REPORTS", tmp_path)
    assert mc.carried_over([]) == []

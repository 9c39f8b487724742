"""The calibration's search (tests/bench/calibration/bench_calibration.py
search()) on goodput curves whose answer is known, so a wrong bracket, a
step that skips the answer or a probe budget overrun fails here and not
after an hour of guest runs."""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_calibration",
                                               os.path.join(HERE, "calibration", "bench_calibration.py"))
cal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cal)


def counted(f):
    calls = []

    def probe(m):
        calls.append(m)
        return f(m)
    return probe, calls


def test_linear_curve_lands_on_the_nearest_integer_in_few_probes():
    # 4.2836 Mb/s per MIPS, about the Linux board's: 400 / 4.2836 = 93.38
    probe, calls = counted(lambda m: 4.2836 * m)
    probes, best = cal.search(probe, 400.0, 150, 0.5, 8)
    assert best == 93 and len(calls) <= 3, (best, calls)
    assert len(calls) == len(set(calls)), calls            # no m run twice


def test_saturating_curve_from_above_the_knee():
    # the wire caps it at 949.28: the first probe says nothing of the slope
    probe, calls = counted(lambda m: min(4.28 * m, 949.28))
    probes, best = cal.search(probe, 400.0, 500, 0.5, 8)
    assert best == 93 and calls[0] == 500 and len(calls) <= 4, (best, calls)
    assert abs(probes[best] - 400) / 400 < 0.005, probes       # 398.04: within the tolerance


def test_concave_curve_exact_answer():
    probe, calls = counted(lambda m: 100.0 * m ** 0.5)        # 400 at m = 16
    probes, best = cal.search(probe, 400.0, 150, 0.5, 8)
    assert best == 16 and probes[16] == 400.0, (best, calls)


def test_one_mips_bracket_picks_the_nearer_end_and_the_lower_on_a_tie():
    probe, calls = counted(lambda m: 10.0 * m + 5)            # 395 at 39, 405 at 40
    probes, best = cal.search(probe, 400.0, 150, 0.0, 20)
    assert best == 39 and {39, 40} <= set(calls), (best, calls)


def test_no_traffic_at_the_start_doubles_until_it_moves():
    probe, calls = counted(lambda m: 0.0 if m < 50 else 4.0 * m)
    probes, best = cal.search(probe, 400.0, 10, 0.5, 8)
    assert calls[:3] == [10, 20, 40] and best == 100, calls


def test_probe_budget_is_kept():
    probe, calls = counted(lambda m: 10.0 * m + 5)
    probes, best = cal.search(probe, 400.0, 1000, 0.0, 2)
    assert len(calls) == 2 and best in calls, calls


def test_falling_curve_of_the_line_cost():
    # FIT=dma_line: goodput falls as each DMA line costs more.  One 1460-byte
    # segment costs 2.1 us plus 46 lines at D ns: 400 Mb/s at D = 589.1
    probe, calls = counted(lambda d: 1460 * 8 / (2.1 + 46 * d / 1000.0))
    probes, best = cal.search(probe, 400.0, 600, 0.0, 8, rising=False)
    assert best == 589 and len(calls) <= 5, (best, calls)
    assert len(calls) == len(set(calls)), calls


def test_falling_linear_curve_brackets_from_below_the_answer():
    probe, calls = counted(lambda d: 1000.0 - d)              # 400 at d = 600
    probes, best = cal.search(probe, 400.0, 300, 0.5, 8, rising=False)
    assert best == 600 and calls == [300, 525, 623, 600], calls

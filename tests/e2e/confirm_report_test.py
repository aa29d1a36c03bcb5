"""`sealint confirm --report r.html` end to end (docs/confirm.md, "Report").

The plan is made by sealint, run by the probe on its own (as on a GPU machine without sealint's
build), and the report is written from that result with `--result`: so the test holds every chart's
series against the very result the page was drawn from. Then headless Chromium (Debian's
`chromium`, installed by `make deps`) renders the page with JavaScript off, and the screenshot is
read with Pillow (python3-pil): not blank, and every chart's axis and measured line on it.

usage: /usr/bin/python3 confirm_report_test.py SEALINT SOURCE_DIR [unittest args]
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SEALINT = None
SOURCE = None
PYTHON = "/usr/bin/python3"  # Debian's, which has torch


class Page(html.parser.HTMLParser):
    """The charts of a report page: per `<svg class="chart">`, its id and its measured series."""

    def __init__(self):
        super().__init__()
        self.charts = {}  # svg id -> {"metric": ..., "values": [...]}
        self.tags = set()
        self.chart = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.add(tag)
        if tag == "svg" and "chart" in attrs.get("class", "").split():
            self.chart = attrs["id"]
            self.charts[self.chart] = None
        if tag == "g" and attrs.get("class") == "series" and self.chart is not None:
            values = [None if v == "null" else float(v) for v in attrs["data-values"].split(",")]
            self.charts[self.chart] = {"metric": attrs["data-metric"], "values": values}

    def handle_endtag(self, tag):
        if tag == "svg":
            self.chart = None


def expected_charts(result, prefix_of_id):
    """The charts a result calls for: every series with a measured sample, by the page's ids."""
    out = {}
    for entry in result["findings"]:
        prefix = prefix_of_id(entry["id"])
        if prefix is None:
            continue
        for variable in entry["variables"]:
            name = "".join(c if c.isalnum() or c == "_" else "-" for c in variable["name"])
            for metric in ("graph_nodes", "length", "tensor_bytes"):
                values = (variable.get("series") or {}).get(metric)
                if values and any(v is not None for v in values):
                    out["%s-%s-%s" % (prefix, name, metric)] = values
        loop = entry["loop"]
        if loop is None:
            continue
        for metric in ("cuda_allocated_bytes", "live_tensor_bytes", "saved_tensor_bytes"):
            values = (result["loops"][loop].get("series") or {}).get(metric)
            if values and any(v is not None for v in values):
                out["%s-loop-%s" % (prefix, metric)] = values
    return out


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("headless Chromium is missing: `make deps` installs Debian's chromium "
                         "package, which this test renders the report with")


class ConfirmReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="sealint-report-test-")
        shutil.copy(os.path.join(SOURCE, "examples", "leaky_total_loss.py"), cls.work)
        cls.script = "leaky_total_loss.py"
        cls.sealint(["confirm", cls.script, "--plan-only", "-o", "plan.json"], expect=0)
        env = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "probe"))
        probe = subprocess.run(
            [PYTHON, "-m", "sealint_probe", "--plan", "plan.json", "--out", "result.json", "--",
             cls.script, "--steps", "40"],
            cwd=cls.work, env=env, capture_output=True, text=True, timeout=600)
        assert probe.returncode == 0, probe.stderr
        with open(os.path.join(cls.work, "result.json")) as f:
            cls.result = json.load(f)
        with open(os.path.join(cls.work, "plan.json")) as f:
            cls.plan = json.load(f)
        cls.sealint(["confirm", cls.script, "--result", "result.json", "--report", "r.html",
                     "--format", "json", "-o", "findings.json"], expect=1)
        with open(os.path.join(cls.work, "r.html"), encoding="utf-8") as f:
            cls.html = f.read()
        with open(os.path.join(cls.work, "findings.json")) as f:
            cls.findings = json.load(f)
        cls.page = Page()
        cls.page.feed(cls.html)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def sealint(cls, args, expect):
        run = subprocess.run([SEALINT] + args, cwd=cls.work, capture_output=True, text=True,
                             timeout=600, env={"PATH": "/usr/bin:/bin", "HOME": cls.work})
        assert run.returncode == expect, "%s: exit %d\n%s%s" % (args, run.returncode, run.stdout,
                                                                run.stderr)
        return run

    def prefix_of_id(self, ident):
        findings = len(self.findings)
        return "finding-%d" % ident if ident < findings else "loop-%d" % ident

    def test_every_series_of_the_result_is_charted_with_its_values(self):
        expected = expected_charts(self.result, self.prefix_of_id)
        # A watched loop that encloses another is not shown; every finding is.
        shown = {k: v for k, v in expected.items()
                 if 'id="%s"' % "-".join(k.split("-")[:2]) in self.html}
        self.assertIn("finding-0-total_loss-graph_nodes", shown)
        self.assertIn("finding-0-loop-live_tensor_bytes", shown)
        for chart_id, values in shown.items():
            self.assertIn(chart_id, self.page.charts)
            drawn = self.page.charts[chart_id]
            self.assertIsNotNone(drawn, chart_id)
            self.assertEqual(len(drawn["values"]), len(values), chart_id)
            for got, want in zip(drawn["values"], values):
                if want is None:
                    self.assertIsNone(got, chart_id)
                else:
                    self.assertAlmostEqual(got, float(want), places=6, msg=chart_id)
        for chart_id in self.page.charts:
            self.assertIn(chart_id, expected, "a chart of no series of the result")

    def test_the_growth_is_drawn_with_its_fit_and_projection(self):
        start = self.html.index('id="finding-0-total_loss-graph_nodes"')
        chart = self.html[start:self.html.index("</svg>", start)]
        self.assertIn('class="fit"', chart)
        self.assertIn('class="projection"', chart)

    def test_the_page_shows_the_verdict_holder_source_and_fix(self):
        verdict = self.findings[0]["confirmation"]
        self.assertEqual(verdict["verdict"], "confirmed")
        self.assertIn("confirmed: `total_loss` grows by", self.html)
        self.assertIn("held by: <code>`total_loss` (Tensor", self.html)
        self.assertIn("total_loss += loss  # a tensor", self.html)  # the finding's line
        self.assertRegex(self.html, r'class="added">\s*\d+ \+ +total_loss \+= loss\.detach\(\)\.item\(\)')

    def test_the_page_is_self_contained_without_script(self):
        self.assertNotIn("script", self.page.tags)
        for attribute in ("src=", "<link", "@import", "url("):
            self.assertNotIn(attribute, self.html)

    def test_a_script_with_nothing_to_confirm_still_gets_its_page(self):
        with open(os.path.join(self.work, "plain.py"), "w") as f:
            f.write("import torch\nprint(torch.zeros(2))\n")
        run = self.sealint(["confirm", "plain.py", "--report", "plain.html"], expect=0)
        self.assertIn("nothing to confirm", run.stdout)
        with open(os.path.join(self.work, "plain.html"), encoding="utf-8") as f:
            self.assertIn("No findings and no measured loop.", f.read())

    def screenshot(self, page, name, height):
        """`page` rendered by headless Chromium with JavaScript off (a profile whose default
        content setting blocks it: the `scriptEnabled` blink setting also stops the screenshot)."""
        from PIL import Image  # python3-pil, from `make deps`

        profile = os.path.join(self.work, "profile")
        os.makedirs(os.path.join(profile, "Default"), exist_ok=True)
        with open(os.path.join(profile, "Default", "Preferences"), "w") as f:
            json.dump({"profile": {"default_content_setting_values": {"javascript": 2}}}, f)
        shot = os.path.join(self.work, name)
        run = subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
             "--force-device-scale-factor=1", "--hide-scrollbars", "--screenshot=" + shot,
             "--window-size=1100,%d" % height, "file://" + page],
            cwd=self.work, capture_output=True, text=True, timeout=300,
            env=dict(os.environ, HOME=self.work))
        self.assertTrue(os.path.exists(shot), "chromium wrote no screenshot:\n" + run.stderr)
        return Image.open(shot).convert("RGB")

    def test_chromium_runs_with_javascript_off(self):
        # The control: a page whose script would paint it red stays white.
        page = os.path.join(self.work, "script.html")
        with open(page, "w") as f:
            f.write('<html><body><script>document.body.style.background="rgb(255,0,0)"</script>'
                    "</body></html>")
        self.assertEqual(self.screenshot(page, "script.png", 300).getpixel((100, 150)),
                         (255, 255, 255))

    def test_the_page_renders_in_headless_chromium_with_every_chart(self):
        charts = len(self.page.charts)
        self.assertGreaterEqual(charts, 3)
        height = 1200 + 700 * self.html.count("<section") + 260 * charts
        image = self.screenshot(os.path.join(self.work, "r.html"), "shot.png", height)
        width, rows = image.size
        pixels = image.load()
        colours = set(image.getdata())
        self.assertGreater(len(colours), 8, "the screenshot is blank")
        # Each chart's x axis is a crisp grey (#888) row over its whole plot width; above it,
        # within the plot's height, the measured line in its blue (#1f5fbf).
        def near(p, q, by=40):
            return all(abs(a - b) <= by for a, b in zip(p, q))

        axes = []
        for y in range(rows):
            run_length = best = 0
            for x in range(width):
                run_length = run_length + 1 if pixels[x, y] == (136, 136, 136) else 0
                best = max(best, run_length)
            if best >= 500:
                axes.append(y)
        self.assertEqual(len(axes), charts, "charts seen at rows %s" % axes)
        for y in axes:
            blue = any(near(pixels[x, yy], (31, 95, 191)) for yy in range(max(0, y - 160), y + 1)
                       for x in range(0, width, 2))
            self.assertTrue(blue, "no measured line above the axis at row %d" % y)


if __name__ == "__main__":
    SEALINT, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:])

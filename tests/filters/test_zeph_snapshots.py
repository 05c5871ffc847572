"""Zeph §4.5 snapshot outputs, reproduced exactly or with the documented differences.

Differences (docs/filters.md, "Changes from Zeph"): omissions state their count and kind, so
strip_noise/test_summary outputs end with or contain a count line; test_summary keeps the
runner's own summary line verbatim and heads the failures with the runner's own heading.
"""

from __future__ import annotations

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.strategy import StrategyRegistry

WARNING_BLOCK = """warning: unused import: `std::io`
 --> src/main.rs:1:5
  |
1 | use std::io;
  |     ^^^^^^^
  = note: `#[warn(unused_imports)]` on by default"""


def test_cargo_build_filter(engine: FilterEngine) -> None:
    raw = (
        "   Compiling libc v0.2.150\n   Compiling serde v1.0.190\n   Compiling zeph v0.9.0\n"
        f"{WARNING_BLOCK}\n"
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.23s\n"
    )
    result = engine.apply_rules("cargo build", raw, 0)
    # ours: the summary is a protected line, kept where it stands and as it was written
    assert result.output == (
        f'(3 noise lines removed, like "Compiling libc v0.2.150")\n\n{WARNING_BLOCK}\n'
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.23s"
    )


ERROR_BLOCK = """error[E0308]: mismatched types
 --> src/main.rs:4:18
  |
4 |     let x: i32 = "hello";
  |            ---   ^^^^^^^ expected `i32`, found `&str`
  |            |
  |            expected due to this

error: could not compile `zeph` (bin "zeph") due to 1 previous error"""


def test_cargo_build_error(engine: FilterEngine) -> None:
    result = engine.apply_rules("cargo build", f"   Compiling zeph v0.9.0\n{ERROR_BLOCK}\n", 101)
    notice = '(1 noise lines removed, like "Compiling zeph v0.9.0")'
    assert result.output == f"{notice}\n\n{ERROR_BLOCK}"
    assert result.confidence is FilterConfidence.FULL


def test_clippy_grouped_warnings(registry: StrategyRegistry) -> None:
    raw = """warning: this argument is passed by value, but not consumed in the function body
  --> src/foo.rs:12:5
   |
12 | fn run(config: Config) {}
   |                ^^^^^^ help: consider taking a reference instead: `&Config`
   = note: `#[warn(clippy::needless_pass_by_value)]` on by default
warning: this argument is passed by value, but not consumed in the function body
  --> src/bar.rs:45:10
   = note: `#[warn(clippy::needless_pass_by_value)]` on by default
warning: unused import: `std::fmt`
 --> src/main.rs:5:1
  = note: `#[warn(clippy::unused_imports)]` on by default
warning: `my-crate` (lib) generated 3 warnings"""
    strategy = registry.build(
        {
            "type": "group_by_rule",
            "location_pattern": r"^\s*-->\s*(.+:\d+)",
            "rule_pattern": r"#\[warn\(([^)]+)\)\]",
        }
    )
    output = strategy.apply(raw, 0).output
    assert output.startswith(
        "clippy::needless_pass_by_value (2 warnings):\n  src/foo.rs:12:5\n  src/bar.rs:45:10\n\n"
        "clippy::unused_imports (1 warning):\n  src/main.rs:5:1\n\n3 warnings total (2 rules)\n\n"
    )
    # ours: warnings are protected, so the grouped view is followed by the warnings themselves
    assert "warning: this argument is passed by value" in output.split("---")[-1]


def test_filter_diff(registry: StrategyRegistry) -> None:
    raw = """diff --git a/src/main.rs b/src/main.rs
index 1234567..abcdefg 100644
--- a/src/main.rs
+++ b/src/main.rs
@@ -1,3 +1,3 @@
 fn main() {
-    println!("old");
+    println!("new");
 }
diff --git a/src/lib.rs b/src/lib.rs
index 1234567..abcdefg 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,2 +1,3 @@
 pub fn f() {}
+pub fn g() {}"""
    # ours: the changed lines of a small diff are facts; the summary cannot drop them
    assert registry.build({"type": "git_diff"}).apply(raw).output == (
        "src/main.rs    | +1 -1\nsrc/lib.rs    | +1 -0\n"
        "2 files changed, 2 insertions(+), 1 deletions(-)\n\n"
        "--- 2 error/failure line(s) kept from the unfiltered output ---\n"
        '-    println!("old");\n+    println!("new");'
    )


def test_filter_status(registry: StrategyRegistry) -> None:
    raw = " M src/main.rs\n M src/lib.rs\n?? new_file.txt\nA  added.rs\n"
    output = registry.build({"type": "git_status"}).apply(raw).output
    assert output.startswith("M  2 files | A  1 files | D  0 files | ??  1 files\n")
    # ours: status entries are protected, git's own two-column codes come back unchanged
    assert output.endswith("\n M src/main.rs\n M src/lib.rs\n?? new_file.txt\nA  added.rs")


def test_summary_failures(registry: StrategyRegistry) -> None:
    raw = """running 3 tests
test foo::test_a ... ok
test foo::test_b ... FAILED
test foo::test_c ... ok

failures:

---- foo::test_b stdout ----
thread 'foo::test_b' panicked at src/lib.rs:10:5:
assertion `left == right` failed
  left: 1
 right: 2

failures:
    foo::test_b

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
"""
    # Zeph: "FAILURES:" heading and a rebuilt "test result: FAILED. 2 passed; 1 failed;
    # 0 ignored; 0 filtered out" line. Ours: the runner's heading and line, the failed-test
    # status line (must-keep), the count line "running 3 tests" (protected) and the stated
    # omission.
    assert registry.build({"type": "test_summary"}).apply(raw, 1).output == (
        "failures:\n\n---- foo::test_b stdout ----\n"
        "thread 'foo::test_b' panicked at src/lib.rs:10:5:\n"
        "assertion `left == right` failed\n  left: 1\n right: 2\n\nfailures:\n\n"
        "test foo::test_b ... FAILED\n"
        "running 3 tests\n"
        "    foo::test_b\n"  # ours: the list after "failures:" names the failed test
        "... (2 passing tests, 3 other lines omitted) ...\n"
        "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out;"
        " finished in 0.00s"
    )

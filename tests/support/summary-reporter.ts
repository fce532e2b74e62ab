import type { Reporter, TestModule } from 'vitest/node';

/** Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary (read by CI). */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else count.skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) count.failed++;
    }
    console.log(`\n${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}

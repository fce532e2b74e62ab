import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Reporter } from 'vitest/node';

/** `npm run fuzz`: prints the fuzzer's figures (written by the test file's afterAll) once vitest is done. */
export default class FuzzReporter implements Reporter {
  constructor(private readonly options: { summaryFile: string }) {}

  onTestRunEnd(): void {
    const file = this.options.summaryFile;
    if (!existsSync(file)) {
      console.log('\n(fuzz: no figures were written — did the run stop before its afterAll?)');
      return;
    }
    console.log(`\n${readFileSync(file, 'utf8')}`);
    rmSync(file, { force: true });
  }
}

// Allure's own FileSystemWriter fsyncs every result and attachment, synchronously, in the
// runner process: on a busy disk that held the runner's event loop (which hands tests to the
// workers) for about a tenth of a conformance run's wall time (CPU profile of the runner,
// 2026-11-25). The results folder is a report rebuilt by every run, not a store that must
// survive a power cut, so files here are written whole (temporary file, then rename: the
// Allure CLI never reads half a file) but not flushed to the disk.
import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';

export class UnflushedWriter implements Writer {
  private made = false;
  private seq = 0;

  constructor(private readonly dir: string) {}

  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    this.write(`${result.uuid}-result.json`, JSON.stringify(result));
  }

  writeGroup(result: Parameters<Writer['writeGroup']>[0]): void {
    this.write(`${result.uuid}-container.json`, JSON.stringify(result));
  }

  writeAttachment(name: string, content: Buffer): void {
    this.write(name, content);
  }

  writeAttachmentFromPath(name: string, from: string): void {
    const tmp = this.temp();
    copyFileSync(from, tmp);
    renameSync(tmp, join(this.dir, name));
  }

  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void {
    this.write('environment.properties', stringifyEnvInfo(info));
  }

  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void {
    this.write('categories.json', JSON.stringify(categories));
  }

  writeGlobals(name: string, info: Parameters<Writer['writeGlobals']>[1]): void {
    this.write(name, JSON.stringify(info));
  }

  private write(name: string, data: string | Buffer): void {
    const tmp = this.temp();
    writeFileSync(tmp, data);
    renameSync(tmp, join(this.dir, name));
  }

  private temp(): string {
    if (!this.made) mkdirSync(this.dir, { recursive: true });
    this.made = true;
    return join(this.dir, `.allure-write-${process.pid}-${this.seq++}.tmp`);
  }
}

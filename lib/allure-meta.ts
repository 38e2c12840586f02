// A test's Allure labels, links and parameters in one runtime message. Each call of the
// allure facade (labels, links, parameter) is one attachment on the Playwright test, i.e.
// one test step with its stack captured and one message to the runner; five of them per
// test were a measurable share of a run's CPU time (bench/README.md). One metadata message
// carries them all; the reporter applies its fields exactly as it applies them one by one.
import type { FullConfig } from '@playwright/test';
import type { Label, Link } from 'allure-js-commons';

export interface TestMetadata {
  labels: Label[];
  links: Link[];
  parameters: Array<{ name: string; value: string }>;
}

/**
 * Whether anything will read the metadata: an Allure reporter, or a blob report that
 * `merge-reports` may turn into one (the CI's shards). Without either (`--reporter=list`, the
 * mutation and bench runs) a worker neither sends it (a step per test) nor loads Allure's modules.
 */
export function reportsToAllure(config: FullConfig): boolean {
  return config.reporter.some(([name]) => /allure|^blob$/i.test(name));
}

export async function recordMetadata(m: TestMetadata): Promise<void> {
  const { getGlobalTestRuntime } = await import('allure-js-commons/sdk/runtime');
  const runtime = getGlobalTestRuntime() as {
    sendMessage?: (message: { type: 'metadata'; data: Partial<TestMetadata> }) => PromiseLike<void>;
  };
  if (typeof runtime.sendMessage === 'function') {
    await runtime.sendMessage({
      type: 'metadata',
      data: { labels: m.labels, ...(m.links.length ? { links: m.links } : {}), parameters: m.parameters },
    });
    return;
  }
  const allure = await import('allure-js-commons');
  await allure.labels(...m.labels);
  if (m.links.length) await allure.links(...m.links);
  for (const p of m.parameters) await allure.parameter(p.name, p.value);
}

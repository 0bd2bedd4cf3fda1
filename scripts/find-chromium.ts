// Finds a Chromium for the browser tests: CHROMIUM_PATH, an installed one, Playwright's own download
// where the network allows, else Debian's package when running as root (as CI does here).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Chromium's flags for the journeys and the benchmarks alike: headless in a container, no network of its own. */
export const chromeArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const installed = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/snap/bin/chromium'];

function playwrightChromium(): string | null {
  try {
    const install = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'ignore', timeout: 180_000 });
    if (install.status !== 0) return null;
    const path = execFileSync('node', ['-e', "console.log(require('playwright-core').chromium.executablePath())"], { encoding: 'utf8' }).trim();
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

function debianChromium(): string | null {
  if (process.getuid?.() !== 0) return null;
  console.log('[browser] installing chromium from the OS packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  return result.status === 0 && existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null;
}

export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = installed.find((path) => existsSync(path)) ?? playwrightChromium() ?? debianChromium();
  if (!found) throw new Error('No Chromium found: set CHROMIUM_PATH, install chromium, or run as root so the OS package can be installed.');
  return found;
}

if (import.meta.main) console.log(findChromium());

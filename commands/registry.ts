// The command registry. One availability rule for everyone; refuses duplicate ids and shortcuts that could
// both fire at once.
import type { Command, CommandContext, CommandSection } from './command.ts';
import { commandSections } from './command.ts';
import { normaliseShortcut, shortcutsCollide } from './shortcut.ts';

const heldSets = new WeakMap<readonly string[], ReadonlySet<string>>();
/** The permissions as a set, made once per permissions array (the palette asks for every command in a row). */
function heldPermissions(permissions: readonly string[]): ReadonlySet<string> {
  let held = heldSets.get(permissions);
  if (!held) {
    held = new Set(permissions);
    heldSets.set(permissions, held);
  }
  return held;
}

/** The one availability check: all permissions held and `when` true. Pure. */
export function isAvailable(command: Command, ctx: CommandContext): boolean {
  if (command.permissions && command.permissions.length > 0) {
    const held = heldPermissions(ctx.permissions);
    if (!command.permissions.every((permission) => held.has(permission))) return false;
  }
  return command.when ? command.when(ctx) : true;
}

export class CommandRegistryError extends Error {}

export type CommandRegistry = {
  register: (command: Command) => void;
  /** registers several at once (an area's commands arriving after start) and tells the subscribers once */
  registerAll: (commands: readonly Command[]) => void;
  /** called after commands arrive later (the shortcut binder binds their keys then); returns the unsubscribe */
  subscribe: (listener: () => void) => () => void;
  /** counts registerAll calls: a snapshot for useSyncExternalStore */
  version: () => number;
  /** true while commands announced at creation (the areas', loaded after the first screen) have not arrived yet */
  awaitingMore: () => boolean;
  get: (id: string) => Command | undefined;
  all: () => readonly Command[];
  /** commands the user may run now, in section order (listed ones only: no argument-taking commands) */
  available: (ctx: CommandContext) => Command[];
  /** the one command a shortcut runs now, or null */
  resolveShortcut: (shortcut: string, ctx: CommandContext) => Command | null;
  /** every distinct shortcut string registered (for the key binder) */
  shortcuts: () => string[];
};

/**
 * Shortcuts may only be shared between commands whose `when` rules keep them apart; a command without a
 * `when` (always available given its permissions) may share its shortcut with no one. Where two conditional
 * commands with one shortcut are both available, resolveShortcut refuses to pick and reports it.
 */
export function createCommandRegistry(initial: readonly Command[] = [], options: { moreToCome?: boolean } = {}): CommandRegistry {
  const commands = new Map<string, Command>();

  function register(command: Command): void {
    if (commands.has(command.id)) throw new CommandRegistryError(`Command '${command.id}' is already registered.`);
    if (command.shortcut) {
      normaliseShortcut(command.shortcut);
      for (const other of commands.values()) {
        if (!other.shortcut || !shortcutsCollide(other.shortcut, command.shortcut)) continue;
        if (!other.when || !command.when) {
          throw new CommandRegistryError(`Shortcut '${command.shortcut}' of '${command.id}' collides with '${other.shortcut}' of '${other.id}'.`);
        }
      }
    }
    commands.set(command.id, command);
  }

  for (const command of initial) register(command);
  const listeners = new Set<() => void>();
  let version = 0;
  let awaitingMore = options.moreToCome === true;

  const sectionOrder = (section: CommandSection) => commandSections.indexOf(section);

  return {
    register,
    registerAll: (more) => {
      for (const command of more) register(command);
      version += 1;
      awaitingMore = false;
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
    awaitingMore: () => awaitingMore,
    get: (id) => commands.get(id),
    all: () => [...commands.values()],
    available: (ctx) =>
      [...commands.values()]
        .filter((command) => !command.requiresArgs && isAvailable(command, ctx))
        .sort((a, b) => sectionOrder(a.section) - sectionOrder(b.section)),
    resolveShortcut: (shortcut, ctx) => {
      const wanted = normaliseShortcut(shortcut);
      const matching = [...commands.values()].filter(
        (command) => command.shortcut && normaliseShortcut(command.shortcut) === wanted && isAvailable(command, ctx),
      );
      if (matching.length > 1) {
        console.error(`Shortcut '${shortcut}' is claimed by ${matching.map((command) => command.id).join(', ')} at once; none runs.`);
        return null;
      }
      return matching[0] ?? null;
    },
    shortcuts: () => [...new Set([...commands.values()].flatMap((command) => (command.shortcut ? [command.shortcut] : [])))],
  };
}

/** For tests and a start-up check: pairs of commands whose shortcuts collide and which are both available in ctx. */
export function collisionsIn(registry: CommandRegistry, ctx: CommandContext): [string, string][] {
  const available = registry.all().filter((command) => command.shortcut && isAvailable(command, ctx));
  const pairs: [string, string][] = [];
  for (let i = 0; i < available.length; i += 1) {
    for (let j = i + 1; j < available.length; j += 1) {
      const a = available[i];
      const b = available[j];
      if (a?.shortcut && b?.shortcut && shortcutsCollide(a.shortcut, b.shortcut)) pairs.push([a.id, b.id]);
    }
  }
  return pairs;
}

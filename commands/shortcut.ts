// Shortcut strings in tinykeys syntax, compared and displayed. Two shortcuts collide when one press
// sequence is the other or starts it ('g' would swallow 'g t').
import { parseKeybinding } from 'tinykeys';

type Press = { modifiers: string[]; key: string };

const isMac = typeof navigator === 'object' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Case and layout aliases tinykeys treats as one key. */
function canonicalKey(key: string): string {
  const lower = key.toLowerCase();
  if (/^key[a-z]$/.test(lower)) return lower.slice(3);
  if (/^digit[0-9]$/.test(lower)) return lower.slice(5);
  if (lower === 'esc') return 'escape';
  return lower;
}

function presses(shortcut: string): Press[] {
  return parseKeybinding(shortcut).map(([required, , key]) => ({
    modifiers: [...required].map((modifier) => modifier.toLowerCase()).sort(),
    key: canonicalKey(String(key)),
  }));
}

export function normaliseShortcut(shortcut: string): string {
  return presses(shortcut)
    .map((press) => [...press.modifiers, press.key].join('+'))
    .join(' ');
}

export function shortcutsCollide(a: string, b: string): boolean {
  const left = normaliseShortcut(a).split(' ');
  const right = normaliseShortcut(b).split(' ');
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}

const keyLabels: Record<string, string> = {
  arrowright: '→',
  arrowleft: '←',
  arrowup: '↑',
  arrowdown: '↓',
  escape: 'Esc',
  enter: 'Enter',
  bracketright: ']',
  bracketleft: '[',
  backslash: '\\',
  slash: '/',
  space: 'Space',
};

/** Keys as people read them: [['Ctrl', 'K']] or [['G'], ['T']] for a sequence. */
export function shortcutKeys(shortcut: string): string[][] {
  return parseKeybinding(shortcut).map(([required, , key]) => {
    const keyName = canonicalKey(String(key));
    // '?' and '!' already imply Shift: show the character alone.
    const modifiers = [...required].filter((modifier) => !(modifier === 'Shift' && /^[?!]$/.test(keyName)));
    return [
      ...modifiers.map((modifier) =>
        modifier === 'Meta' ? (isMac ? '⌘' : 'Meta') : modifier === 'Control' ? (isMac ? '⌃' : 'Ctrl') : modifier === 'Alt' ? (isMac ? '⌥' : 'Alt') : modifier,
      ),
      keyLabels[keyName] ?? (keyName.length === 1 ? keyName.toUpperCase() : keyName.charAt(0).toUpperCase() + keyName.slice(1)),
    ];
  });
}

export function shortcutLabel(shortcut: string): string {
  return shortcutKeys(shortcut)
    .map((press) => press.join('+'))
    .join(' then ');
}

// Keys typed between Ctrl+K and the palette's arrival. The palette's chunk loads once the first screen has
// settled; a user who presses Ctrl+K before that and types at once would lose those keys to the page (and set off
// single-key shortcuts). While the palette is on its way, printable keys and Backspace are caught here, and the
// palette starts with them as its query; an Enter (Shift+Enter: beside) ends the catching and is handed over too, so
// the palette runs its first result as soon as it is there, as it would have if it had been there already.

export type Typeahead = { query: string; submit: { beside: boolean } | null };

let buffer = '';
let submit: Typeahead['submit'] = null;
let listening = false;
let mounted = false;

/** The palette says when it is mounted (then its own input takes the keys). */
export function setPaletteMounted(value: boolean): void {
  mounted = value;
}

export const isPaletteMounted = () => mounted;

function stopListening(): void {
  if (listening) window.removeEventListener('keydown', onKeyDown, true);
  listening = false;
}

function onKeyDown(event: KeyboardEvent): void {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (event.key === 'Enter') {
    // The query is complete: what follows is for the page (or for whatever the command opens).
    submit = { beside: event.shiftKey };
    stopListening();
  } else if (event.key.length === 1) buffer += event.key;
  else if (event.key === 'Backspace') buffer = buffer.slice(0, -1);
  else return;
  event.preventDefault();
  event.stopPropagation();
}

/** From now until takeTypeahead(), printable keys go to the buffer instead of the page. */
export function startTypeahead(): void {
  if (listening) return;
  buffer = '';
  submit = null;
  listening = true;
  window.addEventListener('keydown', onKeyDown, true);
}

/** Stops catching keys and hands over what was typed (nothing when nothing was, or when not catching). */
export function takeTypeahead(): Typeahead {
  stopListening();
  const typed = { query: buffer, submit };
  buffer = '';
  submit = null;
  return typed;
}

// A shortcut as key caps: [['Ctrl', 'K']] → Ctrl K; sequences as G then T.

export function ShortcutKeys({ keys, className }: { keys: readonly (readonly string[])[]; className?: string }) {
  return (
    <span className={`shortcut${className ? ` ${className}` : ''}`}>
      {keys.map((press, pressIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the presses of a sequence are positions ('g g' presses one key twice)
        <span key={pressIndex} className="shortcut-press">
          {pressIndex > 0 ? <span className="shortcut-then">then</span> : null}
          {press.map((key) => (
            <kbd key={key}>{key}</kbd>
          ))}
        </span>
      ))}
    </span>
  );
}

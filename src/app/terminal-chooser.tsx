// The question 'Go to virtual terminal' asks when several configurations of the merchant have the terminal on:
// a dialog listing them by name. The first is focused; arrow keys, Home and End move between them, Enter opens one
// (as the context's configuration), Escape or Cancel closes without opening any.
import { type KeyboardEvent, useRef } from 'react';
import { openTerminalOf } from '../../commands/virtual-terminal/go-to-virtual-terminal.ts';
import { closeTerminalChooser, type TerminalConfiguration, type TerminalQuestion } from '../state/terminal-chooser-store.ts';
import { Modal } from '../ui/modal.tsx';
import { rovingTarget } from '../ui/roving-focus.ts';
import { useAppServices } from './app-services.tsx';
import { keepFocusAfter } from './focus-keeper.ts';
import './terminal-chooser.css';

export function TerminalChooser({ question }: { question: TerminalQuestion }) {
  const { commandServices } = useAppServices();
  const list = useRef<HTMLUListElement>(null);
  const choose = (configuration: TerminalConfiguration) => {
    closeTerminalChooser();
    void keepFocusAfter(openTerminalOf(commandServices, configuration, question.beside));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const to = rovingTarget(event.key, Math.max(0, index), buttons.length);
    if (to === null) return;
    event.preventDefault();
    buttons[to]?.focus();
  };
  return (
    <Modal
      open
      size="sm"
      title="Which virtual terminal?"
      description={<p>Several configurations of {question.merchantName} have the virtual terminal turned on. Choose the one to take orders on.</p>}
      onClose={closeTerminalChooser}
      closeActionLabel="Cancel"
    >
      <ul ref={list} className="terminal-chooser" aria-label="Configurations with the virtual terminal on" onKeyDown={onKeyDown}>
        {question.configurations.map((configuration) => (
          <li key={configuration.configurationId}>
            <button type="button" className="button terminal-chooser-option" onClick={() => choose(configuration)}>
              {configuration.tradeName}
            </button>
            <span className="terminal-chooser-detail">
              {configuration.configurationId}
              {configuration.description ? ` · ${configuration.description}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

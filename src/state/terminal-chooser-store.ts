// The question 'Go to virtual terminal' asks when several configurations of the merchant have the terminal on: the
// command sets it, src/app/terminal-chooser.tsx shows it (a dialog listing them by name) and answers it.
import { proxy, ref } from 'valtio';

export type TerminalConfiguration = {
  configurationId: string;
  tradeName: string;
  description: string;
  switches: { virtualTerminalMenuEnabled: boolean; [name: string]: boolean };
};

export type TerminalQuestion = {
  merchantName: string;
  configurations: readonly TerminalConfiguration[];
  /** open the chosen terminal in a new pane beside the focused one */
  beside: boolean;
};

export const terminalChooserStore = proxy<{ question: TerminalQuestion | null }>({ question: null });

export function askTerminalConfiguration(question: TerminalQuestion): void {
  // Kept as given (not proxied): the dialog only reads it.
  terminalChooserStore.question = ref({ ...question, configurations: [...question.configurations] });
}

export function closeTerminalChooser(): void {
  terminalChooserStore.question = null;
}

// The commands every screen needs from the first moment (help, palette, workspace, tables, records, context,
// session, the dashboard), registered by the app at start. The areas' own commands are in area-commands.ts, a chunk
// the shell loads when the first screen is up (src/app/shell-services.tsx), so they stay off the first load.
import type { Command } from './command.ts';
import { backToPreviousContextCommand } from './context/back-to-previous.ts';
import { switchContextCommand } from './context/switch-context.ts';
import { dashboardCommands } from './dashboard/dashboard-commands.ts';
import { closeOverlayCommand } from './help/close-overlay.ts';
import { focusSearchCommand } from './help/focus-search.ts';
import { giveFeedbackCommand } from './help/give-feedback.ts';
import { openPaletteCommand } from './help/open-palette.ts';
import { reportBugCommand } from './help/report-bug.ts';
import { showShortcutsCommand } from './help/show-shortcuts.ts';
import { deleteCommand } from './record/delete.ts';
import { editCommand } from './record/edit.ts';
import { firstTabCommand } from './record/first-tab.ts';
import { newItemCommand } from './record/new-item.ts';
import { openSearchResultCommand } from './record/open-search-result.ts';
import { saveCommand } from './record/save.ts';
import { secondTabCommand } from './record/second-tab.ts';
import { signOutCommand } from './session/sign-out.ts';
import { columnsCommand } from './table/columns.ts';
import { dateFilterCommand } from './table/date-filter.ts';
import { exportCommand } from './table/export.ts';
import { filtersCommand } from './table/filters.ts';
import { nextPageCommand, previousPageCommand } from './table/page-keys.ts';
import { rowCursorCommands } from './table/row-cursor.ts';
import { closePaneCommand } from './workspace/close-pane.ts';
import { copyLinkCommand } from './workspace/copy-link.ts';
import { focusNextPaneCommand } from './workspace/focus-next-pane.ts';
import { focusPreviousPaneCommand } from './workspace/focus-previous-pane.ts';
import { movePaneLeftCommand } from './workspace/move-pane-left.ts';
import { movePaneRightCommand } from './workspace/move-pane-right.ts';
import { narrowPaneCommand } from './workspace/narrow-pane.ts';
import { openBesideCommand } from './workspace/open-beside.ts';
import { widenPaneCommand } from './workspace/widen-pane.ts';
import { toggleSideMenuCommand } from './workspace/toggle-side-menu.ts';

export const staticCommands: readonly Command[] = [
  nextPageCommand,
  previousPageCommand,
  openPaletteCommand,
  showShortcutsCommand,
  focusSearchCommand,
  closeOverlayCommand,
  reportBugCommand,
  giveFeedbackCommand,
  switchContextCommand,
  backToPreviousContextCommand,
  signOutCommand,
  openBesideCommand,
  closePaneCommand,
  focusNextPaneCommand,
  focusPreviousPaneCommand,
  movePaneLeftCommand,
  movePaneRightCommand,
  widenPaneCommand,
  narrowPaneCommand,
  copyLinkCommand,
  toggleSideMenuCommand,
  exportCommand,
  filtersCommand,
  columnsCommand,
  dateFilterCommand,
  editCommand,
  newItemCommand,
  saveCommand,
  deleteCommand,
  firstTabCommand,
  secondTabCommand,
  openSearchResultCommand,
  ...rowCursorCommands,
  ...dashboardCommands,
];

// A dropdown menu's item: the trigger's menu (dropdown-menu.tsx) and its lazily loaded popup (menu-popup.tsx) share it.
export type MenuItem = {
  id: string;
  label: string;
  /** a link: rendered as an anchor (the shell's link handling navigates the pane) */
  href?: string;
  onSelect?: () => void;
  shortcut?: readonly (readonly string[])[];
};

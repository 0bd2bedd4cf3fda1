// Splitting an app path into its pathname and query.

export function splitPath(path: string): { pathname: string; search: string } {
  const index = path.indexOf('?');
  return index === -1 ? { pathname: path, search: '' } : { pathname: path.slice(0, index), search: path.slice(index) };
}

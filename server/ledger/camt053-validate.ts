// Validation of generated camt.053.001.08 files against the ISO 20022 schema (xmllint compiled to WebAssembly), on
// the server: the report worker checks every camt.053 file up to camtValidationLimitBytes before storing it.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

/** Files up to this size are validated whole in memory before they are stored; larger ones rely on the reconciliation check. */
export const camtValidationLimitBytes = 16 * 1024 * 1024;

let schema: Promise<string> | null = null;
const camtSchema = () => (schema ??= readFile(fileURLToPath(new URL('./standards/camt.053.001.08.xsd', import.meta.url)), 'utf8'));

/** The schema's complaints about a file (none: it is well-formed and valid). */
export async function camt053Errors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'statement.xml', contents: xml }],
    schema: [{ fileName: 'camt.053.001.08.xsd', contents: await camtSchema() }],
  });
  return result.valid ? [] : result.errors.map((error) => error.message);
}

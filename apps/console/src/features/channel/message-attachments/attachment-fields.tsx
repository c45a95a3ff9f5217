import { Markdown } from '../../../ui/markdown/markdown';
import { fieldRows } from './attachment-rules';
import type { AttachmentField } from './types';

/** Fields as a table: short ones two to a row, long ones across. */
export function AttachmentFields({ fields }: { fields: readonly AttachmentField[] }) {
  const rows = fieldRows(fields);
  if (rows.length === 0) return null;
  return (
    <table className="attachment-fields">
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {row.map((field, j) => (
              <td key={j} colSpan={row.length === 1 && field.short !== true ? 2 : 1} className={field.short ? 'short' : 'long'}>
                {field.title ? <div className="field-title">{field.title}</div> : null}
                <Markdown text={typeof field.value === 'string' ? field.value : field.value === undefined || field.value === null ? '' : String(field.value)} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

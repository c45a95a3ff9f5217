import { useId } from 'react';
import { CheckboxField, describedBy, FieldNotes, SelectField, TextArea, TextField } from '../../ui/field';
import type { DataSources } from '../data-sources/data-sources';
import { dateRules } from './dialog-dates';
import { optionsOf, selectedValues } from './dialog-rules';
import type { DialogElement as Element } from './dialog-types';
import { DialogFileField, type UploadFiles } from './dialog-file-field';
import { DynamicSelect, type Lookup } from './dynamic-select';

const INPUT_TYPES: Readonly<Record<string, string>> = { email: 'email', number: 'number', tel: 'tel', url: 'url', password: 'password' };

interface Props {
  readonly element: Element;
  readonly value: string | boolean | undefined;
  readonly problem: string | undefined;
  readonly sources: DataSources;
  /** Options of a dynamic select (`dialogs/lookup`). */
  readonly lookup: Lookup;
  /** Uploads a `file` element's files to the channel; their ids. */
  readonly upload: UploadFiles;
  readonly onChange: (value: string | boolean) => void;
}

/** One dialog element: its label (with "(optional)"), help text as the hint, the problem in words under it. */
export function DialogElementField({ element, value, problem, sources, lookup, upload, onChange }: Props) {
  const label = `${element.display_name || element.name}${element.optional ? ' (optional)' : ''}`;
  const hint = element.help_text || undefined;
  const text = typeof value === 'string' ? value : '';
  const lengths = {
    ...(element.max_length ? { maxLength: element.max_length } : {}),
    ...(element.min_length ? { minLength: element.min_length } : {}),
  };
  switch (element.type) {
    case 'textarea':
      return <TextArea label={label} hint={hint} problem={problem} value={text} placeholder={element.placeholder} required={!element.optional} rows={4} onChange={(e) => onChange(e.target.value)} {...lengths} />;
    case 'bool':
      return <CheckboxField label={element.placeholder ? `${label}: ${element.placeholder}` : label} hint={problem ?? hint} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
    case 'file':
      return <DialogFileField element={element} label={label} hint={hint} problem={problem} upload={upload} onChange={onChange} />;
    case 'date':
    case 'datetime': {
      const rules = dateRules(element);
      const isDate = element.type === 'date';
      return (
        <TextField
          label={label}
          hint={hint}
          problem={problem}
          type={isDate ? 'date' : 'datetime-local'}
          value={text}
          required={!element.optional}
          {...(rules.min ? { min: isDate ? rules.min : `${rules.min}T00:00` } : {})}
          {...(rules.max ? { max: isDate ? rules.max : `${rules.max}T23:59` } : {})}
          {...(isDate ? {} : { step: rules.intervalMinutes * 60 })}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    }
    case 'select': {
      if (element.data_source === 'dynamic') return <DynamicSelect element={element} label={label} hint={hint} problem={problem} value={text} lookup={lookup} onChange={onChange} />;
      const options = element.data_source === 'users' ? sources.users : element.data_source === 'channels' ? sources.channels : optionsOf(element);
      const multiple = element.multiselect === true;
      return (
        <SelectField
          label={label}
          hint={hint}
          problem={problem}
          multiple={multiple}
          value={multiple ? selectedValues(text) : text}
          required={!element.optional}
          onChange={(e) => onChange(multiple ? [...e.target.selectedOptions].map((o) => o.value).join(',') : e.target.value)}
        >
          {multiple ? null : <option value="">{element.placeholder || 'Choose…'}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </SelectField>
      );
    }
    case 'radio':
      return <RadioGroup element={element} label={label} hint={hint} problem={problem} value={text} onChange={onChange} />;
    default:
      return (
        <TextField
          label={label}
          hint={hint}
          problem={problem}
          type={INPUT_TYPES[element.subtype ?? ''] ?? 'text'}
          value={text}
          placeholder={element.placeholder}
          required={!element.optional}
          onChange={(e) => onChange(e.target.value)}
          {...lengths}
        />
      );
  }
}

function RadioGroup({ element, label, hint, problem, value, onChange }: { element: Element; label: string; hint: string | undefined; problem: string | undefined; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <fieldset className="field radio" aria-describedby={describedBy(id, hint, problem)}>
      <legend>{label}</legend>
      {optionsOf(element).map((o) => (
        <label key={o.value} className="radio-option">
          <input type="radio" name={`${id}-${element.name}`} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
          {o.text}
        </label>
      ))}
      <FieldNotes id={id} hint={hint} problem={problem} />
    </fieldset>
  );
}

interface TextFieldProps {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly type: 'text' | 'email';
  readonly autoComplete: string;
  readonly placeholder: string;
  readonly maxLength: number;
  /** A pattern the value must match, and the hint the browser shows when it does not. */
  readonly pattern?: string;
  readonly title?: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
}

/** A labelled, required input: the browser checks it before the form is submitted. */
export function TextField({ id, label, onChange, ...input }: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} required {...input} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

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
}

/**
 * A labelled, required input: the browser checks it before the form is submitted, and keeps its
 * value (the form reads it when it is submitted).
 */
export function TextField({ id, label, ...input }: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} required {...input} />
    </div>
  );
}

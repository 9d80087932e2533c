import { emailConfigAlert } from '../../../core/content/messages';

/** The inline destructive alert shown when the sender's domain is not verified. */
export function EmailConfigAlert() {
  return (
    <div className="alert alert--destructive" role="alert">
      <h3 className="alert__title">{emailConfigAlert.title}</h3>
      <p className="alert__description">{emailConfigAlert.description}</p>
    </div>
  );
}

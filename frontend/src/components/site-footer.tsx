import { site } from '../../../core/content/site';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <p>{site.footer}</p>
      </div>
    </footer>
  );
}

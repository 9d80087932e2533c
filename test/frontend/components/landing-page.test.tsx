import { render, screen, within } from '@testing-library/react';
import { author } from '../../../core/content/author';
import { book, heroCopy } from '../../../core/content/book';
import { headerCopy } from '../../../core/content/site';
import { audienceHeading } from '../../../core/content/audience';
import { frameworkHeading } from '../../../core/content/framework';
import { resourceCards } from '../../../core/content/resources';
import { testimonial } from '../../../core/content/testimonial';
import { LandingPage } from '../../../frontend/src/components/landing-page';

function renderPage() {
  render(<LandingPage />);
}

const sectionTitled = (name: string) => screen.getByRole('region', { name });

const podcastCard = resourceCards[2]!;

describe('the landing page', () => {
  test('shows its sections in the spec order', () => {
    renderPage();
    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(titles).toEqual([
      frameworkHeading,
      "What You'll Learn to Maximize Your First 100 Days",
      'About the Author',
      'What Readers Are Saying',
      'Free Resources',
      audienceHeading,
      'Get Your Free Business Operations Cheat Sheet',
    ]);
  });

  test('has a banner, a main region and a footer', () => {
    renderPage();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});

describe('the hero', () => {
  test('names the book with its subtitle', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(book.title);
    expect(screen.getByText(book.subtitle)).toBeInTheDocument();
  });

  test('shows the book cover with its size set so nothing shifts', () => {
    renderPage();
    const cover = screen.getByRole('img', { name: book.cover.alt });
    expect(cover).toHaveAttribute('width', String(book.cover.width));
    expect(cover).toHaveAttribute('height', String(book.cover.height));
  });

  test('links to Amazon in a new tab without an opener', () => {
    renderPage();
    const buy = screen.getByRole('link', { name: 'Buy on Amazon' });
    expect(buy).toHaveAttribute('href', book.amazonUrl);
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(buy).toHaveAccessibleDescription('Opens in a new tab');
  });
});

describe('the learning outline', () => {
  const phases = {
    'Initial Review': [
      ['Money', 'Set up financial controls and reporting'],
      ['People', 'Assess team structure and roles'],
      ['Capacity', 'Evaluate current operational capabilities'],
    ],
    'Deep Dive': [
      ['Money', 'Implement KPIs and financial metrics'],
      ['People', 'Develop team training and culture initiatives'],
      ['Capacity', 'Optimize workflows and processes'],
    ],
    'Sustained Improvement': [
      ['Money', 'Establish growth-focused financial strategies'],
      ['People', 'Build high-performing team dynamics'],
      ['Capacity', 'Scale operations for future growth'],
    ],
  };

  test('has three phases in order', () => {
    renderPage();
    const outline = sectionTitled("What You'll Learn to Maximize Your First 100 Days");
    const titles = within(outline)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual(Object.keys(phases));
  });

  test.each(Object.entries(phases))('%s has a Money, a People and a Capacity item, word for word', (phase, items) => {
    renderPage();
    const outline = sectionTitled("What You'll Learn to Maximize Your First 100 Days");
    const column = within(outline).getByRole('heading', { name: phase }).closest('li')!;
    const terms = within(column)
      .getAllByRole('term')
      .map((term) => term.textContent);
    const definitions = within(column)
      .getAllByRole('definition')
      .map((definition) => definition.textContent);
    expect(terms.map((term, index) => [term, definitions[index]])).toEqual(items);
  });
});

describe('About the Author', () => {
  test("shows the author's biography, every paragraph of it in order", () => {
    renderPage();
    const about = sectionTitled('About the Author');
    // The words are the author's (content/author.yaml): taken from there, whatever they say.
    const shown = [...about.querySelectorAll('p')].map((paragraph) => paragraph.textContent);
    expect(shown.filter((text) => author.bio.includes(text ?? ''))).toEqual([...author.bio]);
  });

  test.each(['Facebook', 'Instagram', 'LinkedIn'])('links to the author on %s in a new tab', (network) => {
    renderPage();
    const link = within(sectionTitled('About the Author')).getByRole('link', { name: `${author.name} on ${network}` });
    expect(link).toHaveAttribute('href', expect.stringMatching(/^https:\/\//));
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('the testimonial', () => {
  test('shows five stars, the quote, its author and the role Business Owner', () => {
    renderPage();
    const section = sectionTitled('What Readers Are Saying');
    expect(within(section).getByRole('img', { name: 'Rated 5 out of 5 stars' }).querySelectorAll('svg')).toHaveLength(
      5,
    );
    expect(within(section).getByText(`“${testimonial.text}”`)).toBeInTheDocument();
    expect(within(section).getByText(testimonial.author)).toBeInTheDocument();
    expect(within(section).getByText('Business Owner')).toBeInTheDocument();
  });
});

describe('Free Resources', () => {
  test('shows three cards', () => {
    renderPage();
    const titles = within(sectionTitled('Free Resources'))
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual(['MPC Framework Guide', 'Implementation Videos', podcastCard.title]);
  });

  test.each(['MPC Framework Guide', 'Implementation Videos'])(
    'the %s card has a disabled Coming Soon button',
    (title) => {
      renderPage();
      const card = within(sectionTitled('Free Resources')).getByRole('heading', { name: title }).closest('li')!;
      expect(within(card).getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    },
  );

  test('the podcast logo links to the podcast page in a new tab', () => {
    renderPage();
    const link = within(sectionTitled('Free Resources')).getByRole('link', {
      name: podcastCard.title,
    });
    expect(link).toHaveAttribute('href', podcastCard.link);
    expect(link).toHaveAttribute('href', expect.stringMatching(/^https:\/\//));
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleDescription('Opens in a new tab');
    expect(within(link).getByRole('img')).toHaveAttribute('width', expect.stringMatching(/^\d+$/));
  });
});

describe('the download section', () => {
  test('is the anchor download-section, headed for the free cheat sheet, holding the form', () => {
    renderPage();
    const section = sectionTitled('Get Your Free Business Operations Cheat Sheet');
    expect(section).toHaveAttribute('id', 'download-section');
    expect(
      within(section).getByRole('checkbox', { name: 'I confirm that I have purchased the book' }),
    ).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Send Me the Cheat Sheet' })).toBeInTheDocument();
  });

  test('is what the header and hero calls to action point at', () => {
    renderPage();
    expect(screen.getByRole('link', { name: headerCopy.cheatSheetLink })).toHaveAttribute('href', '#download-section');
    expect(screen.getByRole('link', { name: heroCopy.cheatSheetLink })).toHaveAttribute('href', '#download-section');
  });
});

// The live safety banner: the words of the moment (bannerText.ts), in the tone the chart pages with.
import { useLabEqual } from '../../store/context';
import { bannerLine, bannerText, type BannerText } from './bannerText';

/** The same banner, as far as a reader sees it: it re-renders only when its words or tone change. */
const sameBanner = (a: BannerText, b: BannerText) =>
  a.tone === b.tone && a.state === b.state && bannerLine(a) === bannerLine(b);

export function SafetyBanner() {
  const b = useLabEqual((s) => bannerText(s.snapshot, s.experiment), sameBanner);
  // The slot keeps the banner's room whatever it says (layout.css): more lines show over the views below.
  return (
    <div className="banner-slot">
      <div
        className={`banner banner-${b.tone}`}
        role="status"
        data-testid="safety-banner"
        data-state={b.state}
        tabIndex={0}
      >
        <strong>{b.headline}</strong>
        {b.details.map((d) => (
          <span key={d}> {d}</span>
        ))}
      </div>
    </div>
  );
}

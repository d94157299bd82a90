// The artifacts of a page: the one pass (collect.ts), then every URL resolved once against the
// document base, the head region sorted out, and the facts several checks share (word counts,
// title words, image formats) computed here, so no check walks the page, its text or its URLs
// again.

import { Place } from '../head-region.js';
import { codePointLength } from '../text.js';
import { firstSrcsetUrl } from '../urls.js';
import { presentWords, textStats, titleWordsOf } from '../words.js';
import { collect, type RawImage, type RawSource } from './collect.js';
import { firstIconHref } from './head-links.js';
import { imageFormat, subtype } from './image-format.js';
import { resolverFor } from './resolve.js';
import type { Artifacts, Image } from './types.js';

function nonBlank(value: string | null): value is string {
  return value !== null && value.trim() !== '';
}

/** A source's first srcset URL, else its src. */
function sourceUrl(source: RawSource): string | null {
  if (nonBlank(source.srcset)) return firstSrcsetUrl(source.srcset);
  if (nonBlank(source.src)) return source.src;
  return null;
}

/** The img's `src`, else its first srcset URL; null when it has neither (then it is no image). */
function imageSource(img: RawImage): string | null {
  if (nonBlank(img.src)) return img.src;
  if (nonBlank(img.srcset)) return firstSrcsetUrl(img.srcset);
  return null;
}

export function buildArtifacts(html: string, finalUrl: string): Artifacts {
  const c = collect(html);
  const { resolve, pathname } = resolverFor(finalUrl, c.baseHrefs);
  const resolveNonBlank = (raw: string | null) => (nonBlank(raw) ? resolve(raw) : null);

  const placed = <T>(items: T[], places: Place[], place: Place) => items.filter((_, i) => places[i] === place);
  const titles = placed(c.titles, c.titlePlaces, Place.Head);
  const title = titles.length > 0 && titles[0] !== '' ? titles[0] : null;
  const titleWords = titleWordsOf(title);
  const headLinks = placed(c.links, c.linkPlaces, Place.Head);
  const icon = firstIconHref(headLinks);

  for (const anchor of c.anchors) anchor.resolved = resolve(anchor.href);

  const pictureFormats = new Map<RawSource[], string[]>();
  const formatsOf = (sources: RawSource[]) => {
    let formats = pictureFormats.get(sources);
    if (formats === undefined) {
      formats = sources.map((s) => {
        const url = sourceUrl(s);
        return url === null ? (s.type === null ? '' : subtype(s.type)) : imageFormat(url, s.type, pathname);
      });
      pictureFormats.set(sources, formats);
    }
    return formats;
  };
  const images = c.images.map((img): Image => {
    const source = imageSource(img);
    return {
      src: resolveNonBlank(img.src),
      source: source === null ? null : resolve(source),
      alt: img.alt,
      sized: img.sized,
      lazy: img.loading?.trim().toLowerCase() === 'lazy',
      format: source === null ? '' : imageFormat(source, img.type, pathname),
      pictureFormats: img.pictureSources === null ? null : formatsOf(img.pictureSources),
    };
  });

  return {
    url: finalUrl,
    document: {
      codePoints: codePointLength(html),
      elements: c.elements,
      tagCounts: c.tagCounts,
      lang: c.lang,
      inlineStyles: c.inlineStyles,
      atAttributeValues: c.atAttributeValues,
      duplicateIds: c.duplicateIds,
    },
    head: {
      titles,
      title,
      titleWords,
      metas: placed(c.metas, c.metaPlaces, Place.Head),
      links: headLinks,
      icon: icon === null ? null : resolve(icon).url,
      closedBy: c.headClosedBy,
      stray: {
        titles: placed(c.titles, c.titlePlaces, Place.Stray),
        metas: placed(c.metas, c.metaPlaces, Place.Stray),
        links: placed(c.links, c.linkPlaces, Place.Stray),
      },
      body: {
        titles: placed(c.titles, c.titlePlaces, Place.Body),
        metas: placed(c.metas, c.metaPlaces, Place.Body),
        links: placed(c.links, c.linkPlaces, Place.Body),
      },
    },
    text: {
      visible: c.visibleText,
      ...textStats(c.visibleText),
      titleWordsFound: presentWords(c.visibleText, titleWords),
    },
    headings: c.headings,
    links: c.anchors,
    images,
    resources: {
      scripts: c.scripts.map((s) => ({ src: resolveNonBlank(s.src), type: s.type, async: s.async, defer: s.defer })),
      stylesheets: c.links.filter((l) => l.rel.includes('stylesheet')).map((l) => resolveNonBlank(l.href)),
      iframes: c.iframes.map((f) => ({ src: resolveNonBlank(f.src), lazy: f.loading === 'lazy' })),
      media: c.media.filter(nonBlank).map(resolve),
    },
    structuredData: { metas: c.metas, sources: c.schemaSources },
  };
}

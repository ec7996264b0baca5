/**
 * Month and weekday abbreviations as glibc's `strftime` prints them (`%b`, `%a`) in the node's
 * locale: journalctl's short prefix (`12月 26 20:34:08 …`, `okt. 29 …`) and `dmesg -T`
 * (`[Mi Apr  6 18:23:24 2022]`) follow LC_TIME; rsyslog and the C locale print English.
 *
 * Source: glibc `localedata/locales/<locale>` LC_TIME `abmon`, `ab_alt_mon` (the nominative form
 * glibc >= 2.27 prints for `%Ob`; older releases printed it for `%b`) and `abday`, taken from
 * glibc 2.36. Tokens are compared in lower case with a trailing dot dropped (`janv.` = `janv`);
 * ja_JP/ko_KR/zh_TW pad months 1-9 with a space (` 1月`), which callers skip as blank.
 *
 * Month tokens that mean different months in different languages (Croatian `lip`, `srp`, `lis`
 * against Polish/Czech) take the reading of the locale listed first. Tables are built once at
 * module load; English is not in them (callers check the C locale first: time-util.ts
 * `monthFromAbbrev`).
 */

/** [locale, abmon (12, space-separated), ab_alt_mon ("" when equal), abday (7, Sunday first)] */
const LOCALES: ReadonlyArray<readonly [string, string, string, string]> = [
  ["de_DE", "Jan Feb Mär Apr Mai Jun Jul Aug Sep Okt Nov Dez", "", "So Mo Di Mi Do Fr Sa"],
  ["de_AT", "Jän Feb Mär Apr Mai Jun Jul Aug Sep Okt Nov Dez", "", "So Mo Di Mi Do Fr Sa"],
  ["fr_FR", "janv. févr. mars avril mai juin juil. août sept. oct. nov. déc.", "", "dim. lun. mar. mer. jeu. ven. sam."],
  ["fr_CA", "jan fév mar avr mai jun jui aoû sep oct nov déc", "", "dim lun mar mer jeu ven sam"],
  ["es_ES", "ene feb mar abr may jun jul ago sep oct nov dic", "", "dom lun mar mié jue vie sáb"],
  ["it_IT", "gen feb mar apr mag giu lug ago set ott nov dic", "", "dom lun mar mer gio ven sab"],
  ["pt_PT", "jan fev mar abr mai jun jul ago set out nov dez", "", "dom seg ter qua qui sex sáb"],
  ["nl_NL", "jan feb mrt apr mei jun jul aug sep okt nov dec", "", "zo ma di wo do vr za"],
  ["sv_SE", "jan feb mar apr maj jun jul aug sep okt nov dec", "", "sön mån tis ons tor fre lör"],
  ["da_DK", "jan feb mar apr maj jun jul aug sep okt nov dec", "", "søn man tir ons tor fre lør"],
  ["nb_NO", "jan. feb. mars april mai juni juli aug. sep. okt. nov. des.", "", "sø. ma. ti. on. to. fr. lø."],
  ["nn_NO", "jan. feb. mars april mai juni juli aug. sep. okt. nov. des.", "", "su. må. ty. on. to. fr. la."],
  ["fi_FI", "tammi helmi maalis huhti touko kesä heinä elo syys loka marras joulu", "", "su ma ti ke to pe la"],
  ["pl_PL", "sty lut mar kwi maj cze lip sie wrz paź lis gru", "", "nie pon wto śro czw pią sob"],
  ["cs_CZ", "led úno bře dub kvě čen čec srp zář říj lis pro", "", "Ne Po Út St Čt Pá So"],
  ["sk_SK", "jan feb mar apr máj jún júl aug sep okt nov dec", "", "Ne Po Ut St Št Pi So"],
  ["ru_RU", "янв фев мар апр мая июн июл авг сен окт ноя дек", "янв фев мар апр май июн июл авг сен окт ноя дек", "Вс Пн Вт Ср Чт Пт Сб"],
  ["uk_UA", "січ лют бер кві тра чер лип сер вер жов лис гру", "", "нд пн вт ср чт пт сб"],
  ["be_BY", "сту лют сак кра мая чэр ліп жні вер кас ліс сне", "сту лют сак кра май чэр ліп жні вер кас ліс сне", "Няд Пан Аўт Срд Чцв Пят Суб"],
  ["tr_TR", "Oca Şub Mar Nis May Haz Tem Ağu Eyl Eki Kas Ara", "", "Paz Pzt Sal Çrş Prş Cum Cts"],
  ["zh_CN", "1月 2月 3月 4月 5月 6月 7月 8月 9月 10月 11月 12月", "", "日 一 二 三 四 五 六"],
  ["ja_JP", "1月 2月 3月 4月 5月 6月 7月 8月 9月 10月 11月 12月", "", "日 月 火 水 木 金 土"],
  ["ko_KR", "1월 2월 3월 4월 5월 6월 7월 8월 9월 10월 11월 12월", "", "일 월 화 수 목 금 토"],
  ["hu_HU", "jan febr márc ápr máj jún júl aug szept okt nov dec", "", "v h k sze cs p szo"],
  ["ro_RO", "ian feb mar apr mai iun iul aug sep oct nov dec", "", "Du Lu Ma Mi Jo Vi Sb"],
  ["el_GR", "Ιαν Φεβ Μαρ Απρ Μαΐ Ιουν Ιουλ Αυγ Σεπ Οκτ Νοε Δεκ", "Ιαν Φεβ Μάρ Απρ Μάι Ιούν Ιούλ Αύγ Σεπ Οκτ Νοέ Δεκ", "Κυρ Δευ Τρι Τετ Πεμ Παρ Σαβ"],
  ["bg_BG", "яну фев мар апр май юни юли авг сеп окт ное дек", "", "нд пн вт ср чт пт сб"],
  ["hr_HR", "sij velj ožu tra svi lip srp kol ruj lis stu pro", "", "ned pon uto sri čet pet sub"],
  ["sl_SI", "jan feb mar apr maj jun jul avg sep okt nov dec", "", "ned pon tor sre čet pet sob"],
  ["sr_RS", "јан феб мар апр мај јун јул авг сеп окт нов дец", "", "нед пон уто сре чет пет суб"],
  ["lt_LT", "saus. vas. kov. bal. geg. birž. liep. rugp. rugs. spal. lapkr. gruod.", "", "Sk Pr An Tr Kt Pn Št"],
  ["lv_LV", "jan feb mar apr mai jūn jūl aug sep okt nov dec", "", "Sv P O T C Pk S"],
  ["et_EE", "jaan veebr märts apr mai juuni juuli aug sept okt nov dets", "", "P E T K N R L"],
  ["ca_ES", "gen. febr. març abr. maig juny jul. ag. set. oct. nov. des.", "", "dg. dl. dt. dc. dj. dv. ds."],
  ["eu_ES", "urt ots mar api mai eka uzt abu ira urr aza abe", "", "ig. al. ar. az. og. or. lr."],
  ["gl_ES", "Xan Feb Mar Abr Mai Xuñ Xul Ago Set Out Nov Dec", "", "Dom Lun Mar Mér Xov Ven Sáb"],
  ["id_ID", "Jan Feb Mar Apr Mei Jun Jul Agu Sep Okt Nov Des", "", "Min Sen Sel Rab Kam Jum Sab"],
  ["ms_MY", "Jan Feb Mac Apr Mei Jun Jul Ogos Sep Okt Nov Dis", "", "Ahd Isn Sel Rab Kha Jum Sab"],
  ["is_IS", "jan feb mar apr maí jún júl ágú sep okt nóv des", "", "sun mán þri mið fim fös lau"],
  ["af_ZA", "Jan Feb Mrt Apr Mei Jun Jul Aug Sep Okt Nov Des", "", "So Ma Di Wo Do Vr Sa"],
  ["kk_KZ", "Қаң Ақп Нау Сәу Мам Мау Шіл Там Қыр Қаз Қар Жел", "", "Жк Дс Сс Ср Бс Жм Сб"],
  ["he_IL", "ינו פבר מרץ אפר מאי יונ יול אוג ספט אוק נוב דצמ", "", "א' ב' ג' ד' ה' ו' ש'"],
];

/** English (C locale) weekdays, Sunday first. */
const C_DAYS = "Sun Mon Tue Wed Thu Fri Sat";

function key(tok: string): string {
  const t = tok.toLowerCase();
  return t.length > 1 && t.charCodeAt(t.length - 1) === 46 ? t.slice(0, -1) : t;
}

const MONTHS = new Map<string, number>();
/** weekday token → bit mask of the weekdays it may name (bit 0 = Sunday) */
const WEEKDAYS = new Map<string, number>();

for (const [, abmon, alt] of LOCALES) {
  for (const list of [abmon, alt]) {
    if (!list) continue;
    list.split(" ").forEach((m, i) => {
      const k = key(m);
      if (!MONTHS.has(k)) MONTHS.set(k, i + 1);
    });
  }
}
for (const list of [C_DAYS, ...LOCALES.map((l) => l[3])]) {
  list.split(" ").forEach((d, i) => {
    const k = key(d);
    WEEKDAYS.set(k, (WEEKDAYS.get(k) ?? 0) | (1 << i));
  });
}

/** `N月` (zh, ja) / `N월` (ko): month N. */
const CJK_MONTH = /^(\d{1,2})[\u6708\uc6d4]$/;

/**
 * Month (1..12) a localised `%b` token names (`Mär`, `okt.`, `sept.`, `мар`, `12月`, `3월`), 0 when
 * none. English abbreviations are found too (cheaper through `monthFromAbbrev`). An unknown token
 * of 4+ letters is tried by its first three (`sept` → `sep`).
 */
export function localMonth(tok: string): number {
  const c = tok.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    const m = CJK_MONTH.exec(tok);
    if (!m) return 0;
    const n = Number(m[1]);
    return n >= 1 && n <= 12 ? n : 0;
  }
  const k = key(tok);
  const v = MONTHS.get(k);
  if (v !== undefined) return v;
  if (k.length > 3) return MONTHS.get(k.slice(0, 3)) ?? ENGLISH.get(k.slice(0, 3)) ?? 0;
  return ENGLISH.get(k) ?? 0;
}

const ENGLISH = new Map("jan feb mar apr may jun jul aug sep oct nov dec".split(" ").map((m, i) => [m, i + 1]));

/**
 * Weekdays (bit mask, bit 0 = Sunday) a `%a` token may name in any listed locale or English
 * (`Mi` → Wednesday, `dim.` → Sunday, `水` → Wednesday); 0 when unknown.
 */
export function weekdayMask(tok: string): number {
  return WEEKDAYS.get(key(tok)) ?? 0;
}

/** Day of the week (0 = Sunday) of a Gregorian date. */
export function dayOfWeek(year: number, month: number, day: number): number {
  const t = Date.UTC(year, month - 1, day) / 86_400_000;
  return (((Math.floor(t) + 4) % 7) + 7) % 7;
}

/** Number of locales in the table (for tests and docs). */
export const LOCALE_COUNT = LOCALES.length;

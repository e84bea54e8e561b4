import { guessLanguage } from './language-guess';

describe('guessLanguage', () => {
  it.each([
    ['en', 'The committee published its annual report on water quality, and the findings were discussed by the council this week.'],
    ['de', 'Der Ausschuss hat seinen Jahresbericht zur Wasserqualität veröffentlicht, und die Ergebnisse wurden diese Woche im Rat besprochen.'],
    ['fr', "Le comité a publié son rapport annuel sur la qualité de l'eau, et les conclusions ont été discutées par le conseil cette semaine."],
    ['es', 'El comité publicó su informe anual sobre la calidad del agua, y los resultados fueron discutidos por el consejo esta semana.'],
    ['ru', 'Комитет опубликовал ежегодный доклад о качестве воды, и его выводы были обсуждены советом на этой неделе.'],
    ['zh', '委员会发布了关于水质的年度报告，理事会本周讨论了报告的结论。'],
    ['ja', '委員会は水質に関する年次報告書を公表し、その結果は今週の理事会で議論されました。'],
    ['ar', 'نشرت اللجنة تقريرها السنوي عن جودة المياه، وناقش المجلس النتائج هذا الأسبوع.'],
    ['pl', 'Komisja opublikowała roczny raport o jakości wody, a jego wnioski zostały omówione przez radę w tym tygodniu.'],
    ['ko', '위원회는 수질에 관한 연간 보고서를 발표했으며 이사회는 이번 주에 그 결과를 논의했습니다.'],
  ])('names %s text', (language, text) => {
    expect(guessLanguage(text)).toBe(language);
  });

  it.each([
    // tinyld's letter sequences say Finnish, then German with certainty: the function words are English.
    'the suomalainen sauna is heated with koivu wood, and the löyly is thrown on the kiuas by the saunaseura members of the kaupunki .',
    'it is shown that the eigenvalues of the jacobian of the navier-stokes operator at the hopf bifurcation of the von karman vortex street are of the order of the strouhal number .',
  ])('names technical or loanword-heavy English by its function words: %s', (text) => {
    expect(guessLanguage(text)).toBe('en');
  });

  it('leaves related languages sharing function words to the letter sequences', () => {
    expect(guessLanguage('O comitê publicou o seu relatório anual sobre a qualidade da água, e as conclusões foram discutidas pelo conselho esta semana.')).toBe('pt');
    expect(guessLanguage('De commissie heeft haar jaarverslag over de waterkwaliteit gepubliceerd en de raad heeft de conclusies deze week besproken.')).toBe('nl');
  });

  it('is unsure about text of fewer than five words', () => {
    expect(guessLanguage('Water quality report')).toBeUndefined();
    expect(guessLanguage('水质报告')).toBeUndefined();
    expect(guessLanguage('')).toBeUndefined();
  });

  it('is unsure about text without words of any language', () => {
    expect(guessLanguage('1234 5678 9012 3456 7890 1234 5678')).toBeUndefined();
  });

  it('decides from the beginning of a long page', () => {
    const page = 'Der Ausschuss hat seinen Jahresbericht zur Wasserqualität veröffentlicht. '.repeat(30) + 'The end of the page is English. '.repeat(300);
    expect(guessLanguage(page)).toBe('de');
  });
});
